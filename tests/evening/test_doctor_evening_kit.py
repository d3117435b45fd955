"""`kikimimi doctor` on an evening: every game's kit, each checked against its own tag map."""
from __future__ import annotations

from kikimimi.box.doctor import config_checks
from kikimimi.contract.kit import kit_for


def test_doctor_lists_every_game_of_the_evening_and_what_each_map_lacks(tmp_path):
    trident = kit_for("trident", 3)
    whole = "".join(f'"04{n:012x}" = "{p}"\n' for n, p in enumerate(
        [p for p, k in trident.copies().items() for _ in range(k)], 1))
    (tmp_path / "trident.toml").write_text("[tags]\n" + whole)
    (tmp_path / "oni.toml").write_text('[tags]\n"04aa0000000001" = "oni:token-bat"\n')
    readers = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "pn532"\npath = "{tmp_path}/h{s}"\n'
                      for s in (1, 2, 3)) + f'[readers.field]\nrole = "field"\ndriver = "pn532"\npath = "{tmp_path}/f"\n'
    (tmp_path / "t.toml").write_text(
        '[table]\ngame = "trident"\nplayers = 3\nlang = "en"\ntagmap = "trident.toml"\njournal = "j.jsonl"\n'
        f'{readers}[games.onisagashi]\ntagmap = "oni.toml"\n')
    config, checks = config_checks(tmp_path / "t.toml")
    assert config is not None
    kit = [c for c in checks if c.name in ("kit", "kit tags")]
    lines = [c.detail for c in kit]
    assert lines[0].startswith("trident for 3: ") and any(line.startswith("onisagashi for 3: ") for line in lines)
    tags = {c.detail.split(":")[0]: c for c in kit if c.name == "kit tags"}
    assert tags["trident"].ok  # its own map is whole, though 鬼探し's pieces are not in it
    oni = kit_for("onisagashi", 3)
    assert not tags["onisagashi"].ok
    assert tags["onisagashi"].detail.startswith(f"onisagashi: {len(oni.copies())} pieces lack tagged copies: ")
