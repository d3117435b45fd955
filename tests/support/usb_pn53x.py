"""An ACR122U, a PN533 board and an RC-S330 at the USB transport, for nfcpy's `nfc.clf.acr122`,
`nfc.clf.pn533` and `nfc.clf.rcs956`.

Both carry an NXP PN53x that activates ISO 14443-A tags itself
(InListPassiveTarget, up to MaxTg = 2 targets in anticollision order by uid,
`listed_targets` shared with the serial PN532's emulator; the RC-S956 lists one,
as nfcpy's rcs956 driver declares) and relays Type 2 commands (InCommunicateThru,
and InDataExchange to a listed target's Tg); they differ in how its frames cross
USB, as nfcpy's driver sources document:

- PN533 (`nfc/clf/pn533.py`, `pn53x.Chipset.command`): the PN53x host frames
  themselves as bulk transfers, `00 00 FF LEN LCS D4 CMD… DCS 00` (or the
  extended `00 00 FF FF FF LEN_hi LEN_lo LCS …`); the chip's ACK
  `00 00 FF 00 FF 00` is one transfer, its answer `… D5 CMD+1 …` the next.
  libnfc's pn53x_usb traces show the same (github.com/nfc-tools/libnfc/issues/278).
  nfcpy reads the EEPROM at 0xA000 for the board's name; this board has none
  (the chip answers that ReadRegister with an error frame: "no eeprom attached").
  The RC-S330 (`nfc/clf/rcs956.py`) frames the same way, to Sony's RC-S956 chip.
- ACR122U (`nfc/clf/acr122.py`, `Chipset.ccid_xfr_block`): the PN532 sits behind
  the reader's own controller, reached through USB CCID.  Each command is a
  PC_to_RDR_XfrBlock (`6F LEN(4, little-endian) slot seq 00 00 00`) carrying a
  pseudo-APDU; `FF 00 00 00 Lc D4 CMD…` (Direct Transmit) passes the PN532
  command, answered by RDR_to_PC_DataBlock (`80 LEN(4) slot seq status error 00`)
  with `D5 CMD+1 … 90 00`.  `FF 00 48 00 00` answers the firmware string
  (`ACR122U207`), `FF 00 40 …` (LED and buzzer) and `FF 00 51 …` (PICC
  parameters) a status word; ICC power-on (`62 …`) answers an ATR.
"""
from __future__ import annotations

import struct

from support.ntag import Ntag213
from support.pn532_emulator import MAX_TG, list_answer, listed_targets
from support.usb_device import UsbReaderEmulator

ACK = bytes.fromhex("0000ff00ff00")
ERROR_FRAME = bytes.fromhex("0000ff01ff7f8100")  # application-level error
REG_FIFO_DATA = 0x6339
SENS_REQ = 0x26
EEPROM = 0xA000
STATUS_TIMEOUT = 0x01  # the target did not answer (UM0701-02 §7.1, error codes)


def pn53x_frame(payload: bytes) -> bytes:
    """A chip-to-host information frame around TFI D5 + `payload`."""
    body = b"\xd5" + payload
    n = len(body)
    if n < 255:
        head = bytes([0, 0, 0xFF, n, (-n) & 0xFF])
    else:
        hi, lo = n >> 8, n & 0xFF
        head = bytes([0, 0, 0xFF, 0xFF, 0xFF, hi, lo, (-(hi + lo)) & 0xFF])
    return head + body + bytes([(-sum(body)) & 0xFF, 0])


def pn53x_body(data: bytes) -> bytes | None:
    """The TFI+command bytes of a host frame, None if the framing or a checksum is wrong."""
    if not data.startswith(b"\x00\x00\xff") or len(data) < 6:
        return None
    if data[3:5] == b"\xff\xff":
        if len(data) < 9 or sum(data[5:8]) & 0xFF:
            return None
        n, head = data[5] << 8 | data[6], 8
    else:
        if (data[3] + data[4]) & 0xFF:
            return None
        n, head = data[3], 5
    body = data[head:head + n]
    if len(body) != n or len(data) < head + n + 1 or (sum(body) + data[head + n]) & 0xFF:
        return None
    return bytes(body)


class Pn53xCore:
    """The PN53x commands nfcpy's pn53x/pn532/pn533 drivers send to open a reader, poll
    ISO 14443-A at 106 kbps and relay Type 2 Tag commands; anything else is an error."""

    def __init__(self, reader: UsbReaderEmulator, firmware: bytes, status: bool = False,
                 max_tg: int = MAX_TG) -> None:
        self.reader = reader
        self.max_tg = max_tg  # targets one InListPassiveTarget lists at most
        self.firmware = firmware
        self.status = b"\x00" if status else b""  # a PN533 puts a status byte before register data
        self.regs: dict[int, int] = {}
        self.selected: Ntag213 | None = None
        self.listed: list[Ntag213] = []  # the targets of the last InListPassiveTarget, Tg 1, 2
        self.field_on = False

    def run(self, code: int, params: bytes) -> bytes | None:
        """The answer payload after D5 CMD+1, None for an error frame."""
        handler = getattr(self, f"_cmd_{code:02x}", None)
        self.reader.commands[handler.__doc__ if handler else f"unknown {code:02x}"] += 1
        reply = handler(params) if handler else None
        return reply if handler is None or reply is None else self.reader.mangled(handler.__doc__, reply)

    def tags_moved(self) -> None:
        if self.selected is not None and self.selected not in self.reader.tags:
            self.selected = None
        self.listed = [t for t in self.listed if t in self.reader.tags]

    def _cmd_00(self, p: bytes) -> bytes:
        """Diagnose"""
        return p if p[:1] == b"\x00" else b"\x00"  # communication line test: echo

    def _cmd_02(self, p: bytes) -> bytes:
        """GetFirmwareVersion"""
        return self.firmware

    def _cmd_06(self, p: bytes) -> bytes | None:
        """ReadRegister"""
        addrs = [p[i] << 8 | p[i + 1] for i in range(0, len(p) - 1, 2)]
        if any(a >= EEPROM for a in addrs):
            return None  # no EEPROM on this board
        return self.status + bytes(self.regs.get(a, 0) for a in addrs)

    def _cmd_08(self, p: bytes) -> bytes:
        """WriteRegister"""
        for i in range(0, len(p) - 2, 3):
            self.regs[p[i] << 8 | p[i + 1]] = p[i + 2]
        return self.status

    def _cmd_12(self, p: bytes) -> bytes:
        """SetParameters"""
        return b""

    def _cmd_14(self, p: bytes) -> bytes:
        """SAMConfiguration"""
        return b""

    def _cmd_16(self, p: bytes) -> bytes:
        """PowerDown"""
        self._field(False)
        return b"\x00"

    def _cmd_32(self, p: bytes) -> bytes:
        """RFConfiguration"""
        if p[:1] == b"\x01" and len(p) > 1 and not p[1] & 0x01:
            self._field(False)
        return b""

    def _cmd_52(self, p: bytes) -> bytes:
        """InRelease"""
        return b"\x00"

    def _field(self, on: bool) -> None:
        self.field_on = on
        if not on:
            for tag in self.reader.tags:
                tag.active = False  # field off: the tags power down

    def _cmd_4a(self, p: bytes) -> bytes:
        """InListPassiveTarget"""
        self._field(True)
        self.regs[REG_FIFO_DATA] = SENS_REQ  # still in the FIFO: nobody answered
        found = listed_targets(self.reader.tags, p, self.max_tg)
        if not found:
            return b"\x00"
        self.regs[REG_FIFO_DATA] = 0
        for other in self.reader.tags:
            other.active = False
        found[-1].active = True  # the ones before it were halted to find the next
        self.selected, self.listed = found[-1], found
        return list_answer(found)

    def _cmd_40(self, p: bytes) -> bytes:
        """InDataExchange"""
        self._field(True)
        tg = p[0] & 0x3F if p else 0
        tag = self.listed[tg - 1] if 1 <= tg <= len(self.listed) else None
        if tag is None or tag not in self.reader.tags:
            return bytes([STATUS_TIMEOUT])
        if tag is not self.selected:  # the chip selects the target its Tg names, as the PN532 emulator does
            for other in self.reader.tags:
                other.active = False
            tag.active, self.selected = True, tag
        answer = tag.command(p[1:])
        if answer is None:
            return bytes([STATUS_TIMEOUT])
        return b"\x00" + (answer[:-2] if len(answer) > 2 else answer)  # the chip checks and strips CRC_A

    def _cmd_42(self, p: bytes) -> bytes:
        """InCommunicateThru"""
        self._field(True)
        tag = self.selected
        answer = tag.command(p) if tag is not None and tag in self.reader.tags else None
        return b"\x01" if answer is None else b"\x00" + answer  # 01: the target has not answered


class Pn533Emulator(UsbReaderEmulator):
    """An NXP PN533 demo board (04cc:2533): PN53x frames straight over bulk."""

    vid, pid = "04cc", "2533"
    manufacturer = "NXP"
    product = "PN533"

    def power_on(self) -> None:
        self.chip = Pn53xCore(self, firmware=b"\x33\x02\x08\x07", status=True)  # PN533 v2.8
        self.bad_frames = 0

    def tag_moved(self) -> None:
        self.chip.tags_moved()

    def bulk_out(self, data: bytes) -> None:
        if data == ACK:
            self.commands["ACK"] += 1
            return
        body = pn53x_body(data)
        if body is None or len(body) < 2 or body[0] != 0xD4:
            self.bad_frames += 1
            return
        self.answer(ACK)
        reply = self.chip.run(body[1], body[2:])
        self.answer(ERROR_FRAME if reply is None else pn53x_frame(bytes([body[1] + 1]) + reply))


class Rcs956Core(Pn53xCore):
    """The RC-S956 in Sony's RC-S330/360/370: the PN53x command set plus Reset (0x18),
    which nfcpy's `rcs956` sends at open and at every mute (nfcpy issue #256's trace:
    `D4 18 01` answered `D5 19`)."""

    def _cmd_18(self, p: bytes) -> bytes:
        """Reset"""
        return b""

    def _cmd_00(self, p: bytes) -> bytes:
        """Diagnose"""
        return p[1:] if p[:1] == b"\x00" else b"\x00"  # the line test echoes the data alone (nfcpy's rcs956)


class RcS330Emulator(Pn533Emulator):
    """A Sony RC-S330 (054c:02e1): PN53x frames over bulk to an RC-S956."""

    vid, pid = "054c", "02e1"
    manufacturer = "SONY"
    product = "RC-S330/S"

    def power_on(self) -> None:
        self.chip = Rcs956Core(self, firmware=b"\x33\x01\x30\x07", max_tg=1)  # RCS956 v1.30
        self.bad_frames = 0


VERSION = b"ACR122U207"
ATR = bytes.fromhex("3b8f8001804f0ca0000003060300000000000068")


def datablock(seq: int, data: bytes) -> bytes:
    """RDR_to_PC_DataBlock: 80, length, slot 0, the command's sequence number, status 0, error 0."""
    return struct.pack("<BIBBBBB", 0x80, len(data), 0, seq, 0, 0, 0) + data


class Acr122uEmulator(UsbReaderEmulator):
    """An ACS ACR122U (072f:2200): a PN532 behind a CCID controller."""

    vid, pid = "072f", "2200"
    manufacturer = "ACS"
    product = "ACR122U PICC Interface"

    def power_on(self) -> None:
        self.chip = Pn53xCore(self, firmware=b"\x32\x01\x06\x07")  # PN532 v1.6
        self.bad_frames = 0
        self.led = ""

    def tag_moved(self) -> None:
        self.chip.tags_moved()

    def bulk_out(self, data: bytes) -> None:
        if len(data) < 10:
            self.bad_frames += 1
            return
        kind, n, _slot, seq = struct.unpack("<BIBB", data[:7])
        apdu = data[10:]
        if len(apdu) != n:
            self.bad_frames += 1
            return
        if kind == 0x62:  # PC_to_RDR_IccPowerOn
            self.commands["IccPowerOn"] += 1
            self.answer(datablock(seq, ATR))
        elif kind == 0x6F:  # PC_to_RDR_XfrBlock
            self.answer(datablock(seq, self._apdu(apdu)))
        else:
            self.bad_frames += 1

    def _apdu(self, apdu: bytes) -> bytes:
        if apdu[:5] == b"\xff\x00\x48\x00\x00":
            self.commands["GetFirmwareString"] += 1
            return VERSION
        if apdu[:3] == b"\xff\x00\x40":
            self.commands["LedBuzzer"] += 1
            self.led = apdu[3:4].hex()
            return b"\x90\x00"
        if apdu[:3] == b"\xff\x00\x51":
            self.commands["PiccParameters"] += 1
            return b"\x90" + apdu[3:4]
        if apdu[:4] == b"\xff\x00\x00\x00" and len(apdu) >= 7 and apdu[4] == len(apdu) - 5 and apdu[5] == 0xD4:
            reply = self.chip.run(apdu[6], apdu[7:])
            if reply is None:
                return b"\x63\x00"  # the controller reports the chip's error frame as a failed APDU
            return bytes([0xD5, apdu[6] + 1]) + reply + b"\x90\x00"
        self.commands["other APDU"] += 1
        return b"\x63\x00"
