"""An NTAG213 as a PN532 sees it over the air: Type 2 Tag commands in, answers out.

Enough of the NXP datasheet for nfcpy's `tt2_nxp` to identify it (GET_VERSION),
read and write its NDEF area (READ/WRITE), and to probe it the way a real one
reacts: an NTAG stays silent to the Ultralight C `1A 00` AUTHENTICATE probe and
goes idle, so the reader must select it again.
"""
from __future__ import annotations

import ndef

PAGES = 45  # NTAG213: pages 0..44
USER_FIRST, USER_LAST = 4, 39
VERSION = bytes.fromhex("0004040201000F03")
ACK, NAK = b"\x0a", b"\x00"
#: What NXP writes in page 4 of a new NTAG213 (NTAG213/215/216 datasheet §8.5, "initialized"
#: state): a Lock Control TLV (dynamic lock bits at page 40, byte 0) and an empty NDEF message.
FACTORY_DATA = bytes.fromhex("0103a00c340300fe")


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A, low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


def ndef_tlv(text: str | None) -> bytes:
    """The bytes of the data area for one NDEF text record (or an empty message)."""
    msg = b"" if text is None else b"".join(ndef.message_encoder([ndef.TextRecord(text)]))
    return bytes([0x03, len(msg)]) + msg + b"\xfe"


class Ntag213:
    """One tag: 7-byte uid, 180 bytes of memory, optionally read-only."""

    sens_res = b"\x00\x44"  # as the PN532 reports ATQA
    sel_res = 0x00  # SAK of a Type 2 Tag

    def __init__(self, uid: str, text: str | None = None, writable: bool = True,
                 factory: bool = False) -> None:
        raw = bytes.fromhex(uid)
        if len(raw) != 7 or raw[0] != 0x04:
            raise ValueError(f"an NTAG213 uid is 7 bytes starting 04, not {uid!r}")
        self.uid = raw
        mem = bytearray(PAGES * 4)
        mem[0:3] = raw[0:3]
        mem[3] = 0x88 ^ raw[0] ^ raw[1] ^ raw[2]
        mem[4:8] = raw[3:7]
        mem[8] = raw[3] ^ raw[4] ^ raw[5] ^ raw[6]
        mem[9] = 0x48
        mem[12:16] = bytes([0xE1, 0x10, 0x12, 0x00 if writable else 0x0F])
        data = FACTORY_DATA if factory else ndef_tlv(text)
        mem[16:16 + len(data)] = data
        mem[41 * 4 + 3] = 0xFF  # AUTH0: no password protection
        self.mem = mem
        self.writable = writable
        self.active = False  # selected by the reader; an unsupported command idles it

    @property
    def uid_hex(self) -> str:
        return self.uid.hex()

    def command(self, cmd: bytes) -> bytes | None:
        """The tag's answer to one frame, or None for silence."""
        if not self.active or not cmd:
            return None
        op = cmd[0]
        if op == 0x30 and len(cmd) == 2:  # READ 4 pages, rolling over at the end
            page = cmd[1]
            if page >= PAGES:
                return NAK
            out = bytearray()
            for p in range(page, page + 4):
                p %= PAGES
                out += b"\0\0\0\0" if p in (43, 44) else self.mem[p * 4:p * 4 + 4]  # PWD/PACK read as 0
            return bytes(out) + crc_a(bytes(out))
        if op == 0xA2 and len(cmd) == 6:  # WRITE one page
            page = cmd[1]
            if page < 2 or page >= PAGES:
                return NAK
            if not self.writable and page >= 3:
                return NAK
            if page == 3:  # capability container is one-time programmable
                self.mem[12:16] = bytes(a | b for a, b in zip(self.mem[12:16], cmd[2:6]))
            else:
                self.mem[page * 4:page * 4 + 4] = cmd[2:6]
            return ACK
        if op == 0x60 and len(cmd) == 1:  # GET_VERSION
            return VERSION + crc_a(VERSION)
        if op == 0x3C and len(cmd) == 2:  # READ_SIG
            sig = bytes(32)
            return sig + crc_a(sig)
        self.active = False  # anything else (incl. 1A 00): silent, back to idle
        return None

    @classmethod
    def new(cls, uid: str) -> Ntag213:
        """A tag as it leaves the factory: Lock Control TLV, then an empty NDEF message."""
        return cls(uid, factory=True)

    def tlvs(self) -> list[tuple[int, bytes]]:
        """The data area's TLVs as (type, value), up to the Terminator (NFC Forum T2T §2.3)."""
        data, i, out = bytes(self.mem[16:40 * 4]), 0, []
        while i < len(data) and data[i] != 0xFE:
            kind = data[i]
            if kind == 0x00:  # NULL TLV: padding
                i += 1
                continue
            n, i = data[i + 1], i + 2
            if n == 0xFF:
                n, i = data[i] << 8 | data[i + 1], i + 2
            out.append((kind, data[i:i + n]))
            i += n
        return out

    def text(self) -> str | None:
        """The first NDEF text record, decoded from memory (for test assertions)."""
        message = next((value for kind, value in self.tlvs() if kind == 0x03), b"")
        if not message:
            return None
        records = list(ndef.message_decoder(message, errors="relax"))
        texts = [r.text for r in records if isinstance(r, ndef.TextRecord)]
        return texts[0] if texts else None
