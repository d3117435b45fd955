"""The readers: each kind of reader is one module of `kinds/` (its table-file keys, driver,
discovery, probe, doctor checks and device classes, `kind.ReaderKind`), listed in the one
table every layer reads (`registry`, which an outside package joins by entry point); below
them, the drivers themselves (`nfc_driver`, `usb_readers`, `serial_rfid`) and the one reader
runner that turns every driver's raw events into clean table inputs (`runner`).  A module
here imports only `kikimimi.contract` and this folder.
"""
