"""The live table: script lines in, events out, through one engine, with nothing lost.

`engine` turns table-script lines into events; `daemon` is one live table behind one lock,
journal first (`journal`); `evening` plays game after game on it; `public` is the public view;
`stand_in` the referee's `scan SEAT TAG`; `config` the table file; `narrate` and `outputs` what
is said; `sim_readers` the typed stand-ins for readers.  May import `kikimimi.contract`,
`bots`, `readers`, `voice` and `records`, never a game, the designer's tools or the command line.
"""
