"""A Sony RC-S380 polled with the fewest reader commands a Type 2 piece allows.

The RC-S380's Port-100 chip does not activate tags itself: every frame on the
air is one InCommRF (nfcpy's `rcs380.Chipset.in_comm_rf`), so REQA,
anticollision and SELECT are the host's (ISO/IEC 14443-3 §6.4), and "one
command per placement", as on a PN53x, cannot be had.  nfcpy's `sense` pays
for generality: InSetRF and two InSetProtocols before every REQA, and two
InSetProtocols around every cascade level (CRC on for SELECT, off for
anticollision); its activation then probes the tag's type (29 commands to
read a name).  Here, once the pieces are known to be Type 2:

- InSetRF and one InSetProtocol once (106 kbps type A, parity on, CRC off
  both ways: the host adds and checks CRC_A on SELECT and READ itself, so
  the chip's CRC setting never changes again);
- the one setting that must change is the bit count of the last byte:
  7 for REQA (a short frame), 8 for the rest; it is changed only when it is
  not already right;
- the field stays on between polls of an empty reader (a REQA nobody
  answered left no tag in any state); it is switched off only before a poll
  that follows one that spoke to a tag, so that tag answers REQA again;
- an enrolled piece needs only its uid: REQA, anticollision and SELECT of
  cascade level 1, anticollision of level 2 (a 7-byte uid), and not the last
  SELECT;
- a piece not enrolled: that SELECT, then direct Type 2 READs of the pages
  the name needs (`read_type2_name`), as on a PN532.

Several pieces: the chip's anticollision is the host's, and nfcpy's command
set shows no way to resolve a bit collision (its InSetProtocol keys name
`bitwise_anticoll`, but neither nfcpy nor a public trace shows how the chip
reports where bits collided).  Two pieces answering one anticollision are a
COLLISION_ERROR: neither can be read, but their presence is not absence, so a
resting piece is believed lifted only when a SELECT by its own uid (no
anticollision needed) gets no answer.
"""
from __future__ import annotations

import errno
import logging
import struct
import threading

import nfc
import nfc.clf
import nfc.clf.device
import nfc.clf.rcs380

from kikimimi.readers.nfc_driver import (
    Listed, ReadFailed, TagGone, identify, read_type2_name, sense,
)

log = logging.getLogger(__name__)

REQA = b"\x26"
SDD, SEL = b"\x20", b"\x70"
CASCADE = (0x93, 0x95, 0x97)  # SEL_REQ's command byte at cascade levels 1, 2, 3
CT = 0x88  # the cascade tag: the uid goes on at the next level
READ = 0x30
# InCommRF timeouts, ms (nfcpy's unit).  A tag answers an activation frame ~0.1 ms after
# it (ISO/IEC 14443-3 §6.2.1.1, FDT) and an NTAG a READ within ~1 ms; nfcpy waits 30 ms
# for each, which an empty reader's poll would wait every time.
ACTIVATION_MS, READ_MS = 3, 10
# nfcpy's in_set_protocol_defaults, then type A at 106 kbps with the CRC left to the host.
PROTOCOL = bytes(nfc.clf.rcs380.Chipset.in_set_protocol_defaults) + bytes([
    0x00, 6,  # initial_guard_time, as nfcpy's sense_tta
    0x01, 0, 0x02, 0,  # add_crc, check_crc: off (the host's)
    0x04, 1, 0x05, 1,  # add_parity, check_parity
    0x07, 7,  # last_byte_bit_count: 7, for the REQA that comes next
])
LAST_BITS = 0x07  # InSetProtocol key: the last byte's bit count


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A of `data`, low byte first (nfcpy's own, which its drivers add when
    the chip leaves the CRC to the host)."""
    return bytes(nfc.clf.device.Device.add_crc_a(bytearray(data))[-2:])


def checked(answer: bytes) -> bytes | None:
    """`answer` without its CRC_A, None if the CRC is wrong."""
    if len(answer) < 3 or not nfc.clf.device.Device.check_crc_a(bytearray(answer)):
        return None
    return answer[:-2]


def cascade_parts(uid: bytes) -> list[bytes]:
    """The uid as the levels of anticollision carry it, each with its BCC: a 7-byte
    uid is CT + uid0..2, then uid3..6 (ISO/IEC 14443-3 §6.5.4)."""
    if len(uid) == 4:
        parts = [uid]
    elif len(uid) == 7:
        parts = [bytes([CT]) + uid[:3], uid[3:]]
    else:
        parts = [bytes([CT]) + uid[:3], bytes([CT]) + uid[3:6], uid[6:]]
    return [p + bytes([p[0] ^ p[1] ^ p[2] ^ p[3]]) for p in parts]


class Rcs380Poll:
    """Finds pieces on an RC-S380 (the driver's `finder` for it, as `CardWait` is for a PN53x)."""

    def __init__(self, clf: nfc.ContactlessFrontend, poll_s: float) -> None:
        self.clf = clf
        self.chipset = clf.device.chipset
        self.poll_s = poll_s
        self.configured = False
        self.bits: int | None = None  # the last byte's bit count the chip is set to
        self.spoken = True  # a tag may be in a state other than IDLE: reset the field first
        self.unselected: bytes | None = None  # the last SELECT not sent yet, for `read_name`

    # -- what the driver asks ------------------------------------------------------
    def may_hide(self, found: list[Listed]) -> bool:
        """A poll may leave a resting piece out: two pieces collide, so every missing one is
        asked for by its uid before it is believed lifted."""
        return True

    def wait(self, stop: threading.Event) -> list[Listed]:
        """An empty reader: one poll after `poll_s`."""
        if stop.wait(self.poll_s):
            return []
        return self.present(reset=False)

    def present(self, reset: bool = True, uid: bytes = b"") -> list[Listed]:
        """The piece that answers (none, or one: two collide); only `uid`'s, if given."""
        del reset  # the field is reset exactly when a tag was spoken to (`spoken`)
        self._ready()
        if self.spoken:
            self.clf.device.mute()  # SwitchRF off; the next InCommRF turns it on
            self.spoken = False
        self._bits(7)
        try:
            sens_res = self._air(REQA, ACTIVATION_MS)
        except nfc.clf.rcs380.CommunicationError as exc:
            if exc != "RECEIVE_TIMEOUT_ERROR":
                self.spoken = True
            return []
        self.spoken = True
        self._bits(8)
        try:
            if uid:
                return self._select(sens_res, uid)
            return self._anticollision(sens_res)
        except nfc.clf.rcs380.CommunicationError as exc:
            log.debug("%s: %s", self.clf.device, exc)  # a collision: two pieces, or noise
            return []

    def still_there(self, uid: str) -> bool:
        """Whether the tag with `uid` answers a SELECT by its uid."""
        return any(t.uid == uid for t in self.present(uid=bytes.fromhex(uid)))

    def read_name(self, listed: Listed) -> str | None:
        """The name on the piece the last poll found, by its last SELECT and direct READs.
        A tag that is not Type 2 is read through nfcpy's activation."""
        for _ in range(2):
            try:
                sel_res = self._finish_select()
                if sel_res & 0x60:  # not a Type 2 Tag (NFC Forum Digital: SAK bits 6, 7)
                    return self._read_by_nfcpy(listed)
                return read_type2_name(self._read_page)
            except (ReadFailed, nfc.clf.rcs380.CommunicationError) as exc:
                log.debug("%s: %s", listed.uid, exc)
            again = self.present(uid=bytes(listed.target.sdd_res))
            if not again:
                raise TagGone(listed.uid)
        return None

    def one_try(self) -> None:
        """nfcpy's own commands come next (enrolment, a tag that is not Type 2): they set the
        chip their way, so everything is set again at the next poll."""
        self.configured, self.bits, self.spoken, self.unselected = False, None, True, None

    # -- the chip -----------------------------------------------------------------------
    def _ready(self) -> None:
        if not self.configured:
            self.chipset.in_set_rf("106A")
            self.chipset.in_set_protocol(PROTOCOL)
            self.configured, self.bits = True, 7

    def _bits(self, n: int) -> None:
        if self.bits != n:
            self.chipset.in_set_protocol(bytes([LAST_BITS, n]))
            self.bits = n

    def _air(self, frame: bytes, timeout_ms: int) -> bytes:
        """One frame to the tag and its answer (CommunicationError: none, or a bad one)."""
        try:
            answer = self.chipset.in_comm_rf(frame, timeout_ms)
        except struct.error:  # a status shorter than its four bytes: nfcpy's CommunicationError cannot hold it
            raise OSError(errno.EIO, "the reader answered a short frame (a status of fewer than 4 bytes)") from None
        if answer is None:  # nfcpy logged a frame that was not data, and returned nothing
            raise OSError(errno.EIO, "the reader answered nonsense (no data frame to InCommRF)")
        return bytes(answer)

    def _sel(self, level: int, part: bytes) -> int:
        """SELECT at `level` with the uid `part` (and BCC); its SAK."""
        frame = bytes([CASCADE[level]]) + SEL + part
        sak = checked(self._air(frame + crc_a(frame), ACTIVATION_MS))
        if sak is None or len(sak) != 1:
            raise nfc.clf.rcs380.CommunicationError(b"\x04\x00\x00\x00")  # CRC_ERROR
        return sak[0]

    def _anticollision(self, sens_res: bytes) -> list[Listed]:
        uid = b""
        for level in range(len(CASCADE)):
            part = self._air(bytes([CASCADE[level]]) + SDD, ACTIVATION_MS)
            if len(part) != 5 or part[0] ^ part[1] ^ part[2] ^ part[3] != part[4]:
                raise nfc.clf.rcs380.CommunicationError(b"\x08\x00\x00\x00")  # COLLISION_ERROR
            if part[0] == CT and level < len(CASCADE) - 1:
                uid += part[1:4]
                self._sel(level, part)
                continue
            uid += part[:4]
            self.unselected = bytes([CASCADE[level]]) + SEL + part
            return [self._listed(sens_res, uid, 0x00)]  # SAK unknown until the last SELECT: read_name's
        return []

    def _select(self, sens_res: bytes, uid: bytes) -> list[Listed]:
        sak = 0
        for level, part in enumerate(cascade_parts(uid)):
            sak = self._sel(level, part)
        self.unselected = None
        return [self._listed(sens_res, uid, sak)]

    def _finish_select(self) -> int:
        frame, self.unselected = self.unselected, None
        if frame is None:
            return 0x00  # selected by uid already
        sak = checked(self._air(frame + crc_a(frame), ACTIVATION_MS))
        if sak is None or len(sak) != 1:
            raise ReadFailed("no SAK to the last SELECT")
        return sak[0]

    def _read_page(self, page: int) -> bytes:
        try:
            data = checked(self._air(bytes([READ, page]) + crc_a(bytes([READ, page])), READ_MS))
        except nfc.clf.rcs380.CommunicationError as exc:
            raise ReadFailed(f"READ {page}: {exc}") from exc
        if data is None or len(data) != 16:
            raise ReadFailed(f"READ {page}: a bad answer")
        return data

    def _read_by_nfcpy(self, listed: Listed) -> str | None:
        self.one_try()
        target = sense(self.clf, bytes(listed.target.sdd_res))
        if target is None:
            raise TagGone(listed.uid)
        return identify(self.clf, target)

    @staticmethod
    def _listed(sens_res: bytes, uid: bytes, sak: int) -> Listed:
        return Listed(0, nfc.clf.RemoteTarget("106A", sens_res=sens_res, sel_res=bytes([sak]), sdd_res=uid))
