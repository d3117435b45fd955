"""One refusal rule for every game (kikimimi.contract.commands.refusal): a seat's refusal is heard
and seen by that seat (and the referee) only; the field's is said on the speaker."""
from __future__ import annotations

from kikimimi.contract.commands import refusal


def test_a_seats_refusal_is_its_own_and_the_fields_is_the_tables():
    mine = refusal(3, "seat 3 has already drawn this turn", "already-drew", count=2)
    assert [(e.type, e.fields.get("private"), e.fields.get("to")) for e in mine] == [
        ("error", "seat:3", None), ("say", None, "seat:3")]
    assert mine[1].fields["params"] == {"count": 2}
    field = refusal(None, "that piece is already on the field", "already-on-field")
    assert [(e.type, e.fields.get("private"), e.fields.get("to")) for e in field] == [
        ("error", None, None), ("say", None, "table")]

