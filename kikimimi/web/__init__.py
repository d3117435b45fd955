"""The web console: the table served to a phone for the referee, the owner and the audience.

It is one more client of the table's API (`kikimimi.api`), exactly like the
terminal console: a referee's command from a phone travels the same socket,
so it is journaled before it is applied, and every console sees one table.
The audience's stream is the API's spectator socket, whose events are
`kikimimi.table.public`'s view: nothing here filters a private event itself.
"""
