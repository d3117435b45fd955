"""Bots that play by ear: what a seat hears, and nothing else, decides its moves.

`ear` is the ear-only bot and its table; `observe` the loop that hands each event to the bots
whose seat may know it; `referee_bots` the referee's `bot SEAT` / `unbot SEAT`; `empty_seats`
the live table's bots in empty seats, waiting like a person.  May import `kikimimi.contract`.
"""
