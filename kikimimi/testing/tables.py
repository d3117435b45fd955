"""Table configs for tests and demos: every reader simulated (keyboard or script)."""
from __future__ import annotations


def sim_table_toml(game: str, players: int, journal: str = "journal.jsonl", lang: str = "en") -> str:
    hands = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "sim"\n'
                    for s in range(1, players + 1))
    return (f'[table]\ngame = "{game}"\nplayers = {players}\nlang = "{lang}"\njournal = "{journal}"\n'
            f'{hands}[readers.field]\nrole = "field"\ndriver = "sim"\n')
