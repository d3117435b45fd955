"""The project's own test harness, outside the wheel: emulated readers (PN532 on a
pseudo-terminal, RDM6300, USB RC-S380/PN533 over a socket), chip timing, kill timers, the
watcher's adversaries and the virtual sound cards.  Tests import it as `support.X` (pytest puts
tests/ on the path); bench scripts add tests/ to sys.path first.  What a game author needs is
`kikimimi.testkit`."""
