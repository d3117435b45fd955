"""The report as a browser shows it: headless Chromium opens the page, every plot
decodes (naturalWidth > 0), a screenshot is taken, and axe-core finds no serious
or critical accessibility violation.

Chromium is Debian's `chromium` and axe-core the pinned npm package, both put
in place by scripts/setup (the fixture installs axe-core itself when npm is
there and it is not).  Without Chromium the test is skipped with the reason,
except on CI (the CI variable set), where the missing browser is a failure.
The check runs from `--dump-dom`: a copy of the page with axe-core inlined
runs axe after the load event and writes its findings into the DOM that
Chromium prints (no DevTools client needed).
"""
from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kikimimi.cli import main

pytestmark = pytest.mark.extra("report")  # the page's pictures are drawn with matplotlib

ROOT = Path(__file__).resolve().parents[2]
AXE_VERSION = "4.14.1"  # as scripts/setup installs it
AXE_DIR = ROOT / ".cache" / "axe"
AXE = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]


def _browser() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (scripts/setup installs Debian's chromium)")
        pytest.skip("chromium is not installed (scripts/setup installs Debian's chromium)")
    return found


def _axe() -> Path:
    if not AXE.exists():
        npm = shutil.which("npm")
        if npm is None:
            if os.environ.get("CI"):
                pytest.fail("axe-core is not installed and there is no npm (scripts/setup installs both)")
            pytest.skip("axe-core is not installed and there is no npm")
        subprocess.run([npm, "install", "--prefix", str(AXE_DIR), "--no-audit", "--no-fund", "--save-exact",
                        "--loglevel=error", f"axe-core@{AXE_VERSION}"], check=True, timeout=300)
    return AXE


CHECK = """
<script>
window.addEventListener("load", async () => {
  const images = Array.from(document.images, i => ({alt: i.alt.slice(0, 40), width: i.naturalWidth}));
  const result = await axe.run(document, {resultTypes: ["violations"]});
  const out = document.createElement("pre");
  out.id = "axe-findings";
  out.textContent = JSON.stringify({images, violations: result.violations.map(
    v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length}))});
  document.documentElement.appendChild(out);
});
</script>
"""


def test_chromium_shows_every_plot_and_axe_finds_no_serious_violation(tmp_path: Path) -> None:
    browser, axe = _browser(), _axe()
    page = tmp_path / "report.html"
    assert main(["report", "witch", "--games", "4", "--players", "6", "--versus", "plain,reason",
                 "--detect", "5", "-o", str(page)]) == 0
    text = page.read_text(encoding="utf-8")
    checked = tmp_path / "checked.html"
    inline = f"<script>{axe.read_text(encoding='utf-8')}</script>{CHECK}"
    checked.write_text(text.replace("</body>", inline + "</body>"), encoding="utf-8")
    profile = tmp_path / "profile"
    run = subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=60000",
                          "--dump-dom", checked.as_uri()], capture_output=True, text=True, timeout=180)
    found = re.search(r'<pre id="axe-findings">(.*?)</pre>', run.stdout, re.S)
    assert found, f"axe wrote nothing (chromium exit {run.returncode}): {run.stderr[-800:]}"
    findings = json.loads(html.unescape(found.group(1)))
    assert len(findings["images"]) == text.count("<img ") >= 5
    assert all(img["width"] > 0 for img in findings["images"]), findings["images"]
    serious = [v for v in findings["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == [], serious

    shot = tmp_path / "report.png"
    subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", "--window-size=1280,2400",
                    f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=180)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000
