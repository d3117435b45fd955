"""The reader kinds kikimimi ships, one module each: a PN532 board on a serial line (`pn532`),
the USB readers nfcpy drives itself (`usb`: RC-S380, RC-S330, ACR122U, PN533), a 125 kHz
RDM6300 (`rdm6300`), and the keyboard or a table script standing in for them all (`sim`).

Each module exports one `KIND` (`kikimimi.readers.kind.ReaderKind`) and imports its driver
only inside its hooks; `kikimimi.readers.registry` lists them.  A module here may import the
readers' own modules below the registry (kind, device_nodes, base and the drivers), never the
registry, nor a layer that reads it.
"""
