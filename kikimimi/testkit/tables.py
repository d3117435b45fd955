"""Table configs for tests and demos: every reader simulated (keyboard or script)."""
from __future__ import annotations


def sim_table_toml(game: str, players: int, journal: str = "journal.jsonl", lang: str = "en",
                   hands: int | None = None, more: str = "") -> str:
    """A table file: `hands` simulated hand readers (default: one a seat; an evening's table has
    as many as its largest game) and a field reader; `more` is further lines of [table]
    (`options = { ... }`).  Sections such as [games.NAME] may follow the text."""
    readers = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "sim"\n'
                      for s in range(1, (hands or players) + 1))
    return (f'[table]\ngame = "{game}"\nplayers = {players}\nlang = "{lang}"\njournal = "{journal}"\n{more}'
            f'{readers}[readers.field]\nrole = "field"\ndriver = "sim"\n')
