"""No secret hangs on a default.  With the default seed, the hidden-bribe dial's
start was recomputable from public facts; a table with no `seed` now draws a random secret
one when first served, kept in the journal's header and never in a spectator's."""
from __future__ import annotations

import json

from kikimimi.table.daemon import Daemon
from kikimimi.table.public import public_header
from kikimimi.contract.script import Header
from kikimimi.table.secret_seed import doctor_line, takes_seed

HIDDEN = {"bribes": "hidden"}


def _journal_header(path):
    return json.loads(path.read_text(encoding="utf-8").splitlines()[0])


def test_a_table_without_a_seed_draws_a_secret_one_when_first_served(tmp_path):
    journal = tmp_path / "j.jsonl"
    d = Daemon(Header("intrigue", 4, dict(HIDDEN)), journal)
    d.open()
    try:
        seed = _journal_header(journal)["options"]["seed"]
        assert isinstance(seed, int) and seed > 0
        assert d.table.game.options["seed"] == seed  # the lots hang on it
        assert "seed" not in json.dumps(public_header(d.header.to_json()))
        d.new_game()  # the next game at the table draws its own
        assert _journal_header(journal)["options"]["seed"] != seed
    finally:
        d.close()
    other = tmp_path / "k.jsonl"
    d2 = Daemon(Header("intrigue", 4, dict(HIDDEN)), other)
    d2.open()
    d2.close()
    assert _journal_header(other)["options"]["seed"] != seed  # not a shared default


def test_a_resumed_table_keeps_its_drawn_seed_and_warns_of_nothing(tmp_path):
    journal = tmp_path / "j.jsonl"
    d = Daemon(Header("intrigue", 4, dict(HIDDEN)), journal)
    d.open()
    seed = d.header.options["seed"]
    d.close()
    again = Daemon(Header("intrigue", 4, dict(HIDDEN)), journal)
    warnings = again.open()
    try:
        assert again.header.options["seed"] == seed
        assert not [w for w in warnings if "seed" in w]
    finally:
        again.close()


def test_a_configured_seed_is_kept_and_doctor_says_which():
    journal_header = Header("intrigue", 4, {**HIDDEN, "seed": 7})
    from kikimimi.table.secret_seed import with_secret_seed

    assert with_secret_seed(journal_header).options["seed"] == 7
    assert takes_seed("intrigue") and takes_seed("witch") and not takes_seed("trident")
    assert "drawn when the table is first served" in (doctor_line("intrigue", dict(HIDDEN)) or "")
    assert "set in the table's config" in (doctor_line("intrigue", {"seed": 7}) or "")
    assert doctor_line("trident", {}) is None


def test_doctor_on_the_games_own_sim_table_says_the_seed_is_drawn():
    from pathlib import Path

    from kikimimi.box.doctor import config_checks

    sim = Path(__file__).resolve().parents[2] / "games" / "intrigue" / "sim.toml"
    _, checks = config_checks(sim)
    said = [c.detail for c in checks if c.name == "secret seed"]
    assert said and "random secret one is drawn" in said[0]
