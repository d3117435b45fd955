"""The web console's store, as it always was imported: it lives in `kikimimi.contract.pairing`,
below the table daemon, which makes pairing codes too (the PAIR card; docs/web.md)."""
from __future__ import annotations

from kikimimi.contract.pairing import (CODE_DIGITS, CODE_LIFETIME, MAX_CODES, MAX_DEVICES, MAX_FILE, ROLES,
                                       Device, Store, StoreError, folder_for)

__all__ = ["CODE_DIGITS", "CODE_LIFETIME", "MAX_CODES", "MAX_DEVICES", "MAX_FILE", "ROLES", "Device", "Store",
           "StoreError", "folder_for"]
