"""A Sony RC-S380 (NFC Port-100 chipset) at the USB transport, for nfcpy's `nfc.clf.rcs380`.

Frames, as nfcpy's driver source documents them (`rcs380.Frame`,
`Chipset.send_command`) and as a real RC-S380 answers in the debug trace
of nfcpy issue #11 (github.com/nfcpy/nfcpy/issues/11):

- host to reader: `00 00 FF FF FF LEN_lo LEN_hi LCS | D6 CMD params | DCS 00`
  (an extended frame always; LCS makes the two length bytes sum to 0, DCS the data);
- the reader acknowledges each command with its own transfer `00 00 FF 00 FF 00`,
  then answers `00 00 FF FF FF LEN LCS | D7 CMD+1 data | DCS 00`;
- a bare ACK from the host cancels and soft-resets (no answer).

e.g. GetFirmwareVersion `D6 20` -> `D7 21 11 01` (v1.11), SwitchRF off `D6 06 00` ->
`D7 07 00`.  InCommRF (`D6 04 TIMEOUT_lo TIMEOUT_hi TX…`) answers four status
bytes (little-endian error flags, 0x80 = RECEIVE_TIMEOUT), one more byte
(0x08 in real traces), then what the tag sent.  Unlike a PN53x, this chip does
not activate tags itself: nfcpy sends REQA, anticollision and select over
the air through InCommRF, so `AirA` answers those as an NTAG would.
InSetProtocol's add_crc / check_crc decide whether the chip adds the CRC to
what it sends and strips it from what it receives (with add_crc off, a host
that sent one itself has it checked by the tag); last_byte_bit_count 7 is the
short frame REQA needs (a REQA sent as a whole byte, or another frame cut to
7 bits, is heard by no tag).  Two tags whose uid parts differ in one
anticollision answer COLLISION_ERROR (0x08), nothing else (bit-wise
anticollision is not modelled).
"""
from __future__ import annotations

import struct

from support.ntag import crc_a
from support.usb_device import REQA, WUPA, AirA, Collision, UsbReaderEmulator

ACK = bytes.fromhex("0000ff00ff00")
ERROR_FRAME = bytes.fromhex("0000ffffff")
FIRMWARE = b"\x11\x01"  # v1.11, as the trace's reader
PD_DATA = b"\x00\x01"
RECEIVE_TIMEOUT = struct.pack("<L", 0x80)
OK = b"\x00\x00\x00\x00"
COLLISION = struct.pack("<L", 0x08)
CRC_ERROR = struct.pack("<L", 0x04)
# InSetProtocol keys (nfcpy's rcs380 KEYS order)
ADD_CRC, CHECK_CRC, LAST_BITS = 0x01, 0x02, 0x07


def port100_frame(data: bytes) -> bytes:
    """A Port-100 frame around `data` (either direction)."""
    n = struct.pack("<H", len(data))
    return b"\x00\x00\xff\xff\xff" + n + bytes([(-sum(n)) & 0xFF]) + data + bytes([(-sum(data)) & 0xFF, 0])


class RcS380Emulator(UsbReaderEmulator):
    vid, pid = "054c", "06c3"
    manufacturer = "SONY"
    product = "RC-S380/P"

    def power_on(self) -> None:
        self.field_on = False
        self.protocol = {ADD_CRC: 1, CHECK_CRC: 1, LAST_BITS: 8}
        self.air = AirA(self)
        self.bad_frames = 0
        self.refuse_once: str | None = None  # a command (by name) answered once with PARAMETER_ERROR
        self.garble_once: str | None = None  # a command (by name) answered once with the error frame

    def tag_moved(self) -> None:
        self.air.tags_moved()

    def bulk_out(self, data: bytes) -> None:
        if data == ACK:
            self.commands["ACK"] += 1
            return
        if len(data) < 10 or data[:5] != b"\x00\x00\xff\xff\xff":
            self.bad_frames += 1
            return
        n = struct.unpack("<H", data[5:7])[0]
        body = data[8:8 + n]
        if (sum(data[5:8]) & 0xFF or len(body) != n or (sum(body) + data[8 + n]) & 0xFF
                or n < 2 or body[0] != 0xD6):
            self.bad_frames += 1
            return
        code, params = body[1], body[2:]
        handler = getattr(self, f"_cmd_{code:02x}", None)
        self.commands[handler.__doc__ if handler else f"unknown {code:02x}"] += 1
        self.answer(ACK)
        reply = self.mangled(handler.__doc__, handler(params)) if handler else b"\x01"
        if handler is not None and handler.__doc__ == self.garble_once:
            self.garble_once = None
            self.answer(ERROR_FRAME)  # nfcpy's Frame type "err": send_command returns None
            return
        if handler is not None and handler.__doc__ == self.refuse_once:
            self.refuse_once = None
            reply = b"\x01"  # status PARAMETER_ERROR
        self.answer(port100_frame(bytes([0xD7, code + 1]) + reply))

    def _cmd_2a(self, p: bytes) -> bytes:
        """SetCommandType"""
        return b"\x00"

    def _cmd_20(self, p: bytes) -> bytes:
        """GetFirmwareVersion"""
        return FIRMWARE

    def _cmd_22(self, p: bytes) -> bytes:
        """GetPDDataVersion"""
        return PD_DATA

    def _cmd_06(self, p: bytes) -> bytes:
        """SwitchRF"""
        if p[:1] == b"\x00":
            self.field_on = False
            self.air.field_off()
        return b"\x00"

    def _cmd_00(self, p: bytes) -> bytes:
        """InSetRF"""
        return b"\x00"

    def _cmd_02(self, p: bytes) -> bytes:
        """InSetProtocol"""
        for i in range(0, len(p) - 1, 2):
            self.protocol[p[i]] = p[i + 1]
        return b"\x00"

    def _cmd_04(self, p: bytes) -> bytes:
        """InCommRF"""
        self.field_on = True
        tx = bytes(p[2:])
        short = len(tx) == 1 and tx[0] in (REQA, WUPA)
        if short != (self.protocol.get(LAST_BITS) == 7):
            return RECEIVE_TIMEOUT + b"\x00"  # a REQA sent as a whole byte, or a frame cut to 7 bits: no tag hears it
        if not self.protocol.get(ADD_CRC) and len(tx) > 2 and crc_a(tx[:-2]) == tx[-2:]:
            tx = tx[:-2]  # the host added the CRC itself: the tags check it
        try:
            rx = self.air.exchange(tx)
        except Collision:
            return COLLISION + b"\x00"
        if rx is None:
            return RECEIVE_TIMEOUT + b"\x00"
        if self.protocol.get(CHECK_CRC) and len(rx) > 2:
            if crc_a(rx[:-2]) != rx[-2:]:
                return CRC_ERROR + b"\x00"
            rx = rx[:-2]  # the chip checked and removed the CRC
        return OK + b"\x08" + rx
