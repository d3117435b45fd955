"""Virtual sound devices, so routing is verified through real PortAudio without hardware.

Two kinds, both built from stock Debian packages:

* `AlsaFileDevices`: ALSA `file` PCMs over a `null` slave.  Everything the
  stream plays lands in a raw float file per device; there is no clock, so a
  clip plays out as fast as the CPU runs.  ALSA reads its configuration once
  per process, when PortAudio starts, so the environment from `env()` must be
  set before `sounddevice` is imported: run the player in a subprocess.
* `PulseNullSinks`: a private PulseAudio server with null sinks (real-time
  clock), exposed to ALSA as `pulse` PCMs, and `parec` recorders on their
  monitors.  Slower, but it paces like a real card, for latency figures.

Device names avoid ALSA's reserved plugin names (`null`, `file`, `hw`, ...),
which PortAudio leaves out of its device list.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np

SYSTEM_ALSA_CONF = Path("/usr/share/alsa/alsa.conf")


def missing_tools(*tools: str) -> list[str]:
    """Which of the named programs or files are absent (tests skip on these)."""
    gone = []
    for tool in tools:
        if tool.startswith("/"):
            if not Path(tool).exists():
                gone.append(tool)
        elif shutil.which(tool) is None:
            gone.append(tool)
    return gone


class AlsaFileDevices:
    """ALSA PCMs named `name` with `channels` each, recorded as raw float32 files."""

    def __init__(self, folder: Path, devices: dict[str, int], rate: int = 48000,
                 vanish_after: dict[str, int] | None = None):
        """`vanish_after[name] = n`: that device fails after n bytes, like a pulled plug.

        The file plugin then writes into a pipe whose reader (`head -c n`)
        exits, so ALSA's next write fails and PortAudio ends the stream,
        exactly the path a USB device unplugged mid-game takes.
        """
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.devices, self.rate = devices, rate
        vanish_after = vanish_after or {}
        self.conf = self.folder / "asound.conf"
        parts = []
        for name, channels in devices.items():
            raw = str(self.raw_path(name))
            if name in vanish_after:
                raw = f"| head -c {int(vanish_after[name])} > {raw}"
            parts.append(
                f'pcm.{name} {{\n'
                f'  type plug\n'
                f'  slave {{ pcm "{name}_rec"; format FLOAT_LE; channels {channels}; rate {rate} }}\n'
                f'  hint {{ show on description "kikimimi virtual {name}" }}\n'
                f'}}\n'
                f'pcm.{name}_rec {{\n'
                f'  type file\n'
                f'  slave.pcm {{ type null }}\n'
                f'  file "{raw}"\n'
                f'  format "raw"\n'
                f'}}\n')
        self.conf.write_text("".join(parts))

    def raw_path(self, name: str) -> Path:
        return self.folder / f"{name}.raw"

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["ALSA_CONFIG_PATH"] = f"{SYSTEM_ALSA_CONF}:{self.conf}"
        return env

    def read(self, name: str) -> np.ndarray:
        """Everything device `name` received: (frames, channels) float32."""
        data = np.fromfile(self.raw_path(name), dtype="<f4")
        channels = self.devices[name]
        return data[: data.size - data.size % channels].reshape(-1, channels)


class PulseNullSinks:
    """A private PulseAudio server with one null sink (and ALSA PCM) per device."""

    def __init__(self, folder: Path, devices: dict[str, int], rate: int = 48000):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.devices, self.rate = devices, rate
        self.socket = self.folder / "pulse.sock"
        self.server = f"unix:{self.socket}"
        self.proc: subprocess.Popen | None = None
        self.recorders: dict[str, subprocess.Popen] = {}
        script = [f"load-module module-null-sink sink_name=kk_{n} rate={rate} channels={c} norewinds=1"
                  for n, c in devices.items()]
        script.append(f"load-module module-native-protocol-unix auth-anonymous=1 socket={self.socket}")
        (self.folder / "server.pa").write_text("\n".join(script) + "\n")
        self.conf = self.folder / "asound.conf"
        self.conf.write_text("".join(
            f'pcm.{n} {{\n  type pulse\n  server "{self.server}"\n  device "kk_{n}"\n'
            f'  hint {{ show on description "kikimimi pulse {n}" }}\n}}\n' for n in devices))

    def _pa_env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update(PULSE_RUNTIME_PATH=str(self.folder / "rt"), HOME=str(self.folder),
                   PULSE_SERVER=self.server)
        return env

    def start(self, timeout: float = 10.0) -> None:
        # As root PulseAudio warns but runs; a private runtime dir keeps its pid
        # file apart from any other server (another test run, a desktop).
        self.proc = subprocess.Popen(
            ["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "-n", "--use-pid-file=no",
             "--disable-shm=yes", "-F", str(self.folder / "server.pa"),
             "--log-target=file:" + str(self.folder / "pulse.log")],
            env=self._pa_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"pulseaudio exited: {self.log_tail()}")
            if self.socket.exists() and self._pactl("info").returncode == 0:
                return
            time.sleep(0.05)
        raise RuntimeError(f"pulseaudio did not start within {timeout:g} s: {self.log_tail()}")

    def log_tail(self) -> str:
        path = self.folder / "pulse.log"
        return path.read_text(errors="replace")[-600:] if path.exists() else "(no log)"

    def _pactl(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["pactl", "--server", self.server, *args], env=self._pa_env(),
                              capture_output=True, text=True, timeout=10)

    def record(self, name: str) -> None:
        """Start recording what sink `name` plays (its monitor) to a raw float file."""
        out = open(self.raw_path(name), "wb")
        self.recorders[name] = subprocess.Popen(
            ["parec", "--server", self.server, "-d", f"kk_{name}.monitor", "--raw",
             "--format=float32le", f"--rate={self.rate}", f"--channels={self.devices[name]}",
             "--latency-msec=10"],
            stdout=out, stderr=subprocess.DEVNULL, env=self._pa_env())
        out.close()

    def stop_recording(self) -> None:
        for proc in self.recorders.values():
            proc.terminate()
            proc.wait(timeout=5)
        self.recorders.clear()

    def unload_sink(self, name: str) -> None:
        """Make device `name` vanish, as if its USB plug were pulled."""
        modules = self._pactl("list", "short", "modules").stdout.splitlines()
        for line in modules:
            if f"sink_name=kk_{name} " in line + " ":
                self._pactl("unload-module", line.split()[0])

    def raw_path(self, name: str) -> Path:
        return self.folder / f"{name}.raw"

    def read(self, name: str) -> np.ndarray:
        data = np.fromfile(self.raw_path(name), dtype="<f4")
        channels = self.devices[name]
        return data[: data.size - data.size % channels].reshape(-1, channels)

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["ALSA_CONFIG_PATH"] = f"{SYSTEM_ALSA_CONF}:{self.conf}"
        return env

    def stop(self) -> None:
        self.stop_recording()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def __enter__(self) -> "PulseNullSinks":
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
