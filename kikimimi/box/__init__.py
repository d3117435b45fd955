"""The owner's box: set it up by ear, check it, run it at boot.

`setup/` is `kikimimi table setup` (readers, earphones, seats and kits bound by ear);
`doctor` what is configured, found and missing, each with its fix; `service` and `access` the
systemd unit and whether its user can reach what it needs.  May import everything below the
command line.
"""
