"""`kikimimi table setup`: a table bound by ear, with no screen (docs/table.md)."""
