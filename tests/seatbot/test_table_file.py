"""`[seat_bots] delay` in a table file: read, and refused in one line when it cannot be a delay."""
from __future__ import annotations

import pytest

from kikimimi.table.config import ConfigError, load_table_config
from kikimimi.testkit.tables import sim_table_toml


def test_the_delay_is_read_and_a_wrong_one_is_refused_in_one_line(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(sim_table_toml("witch", 6) + "[seat_bots]\ndelay = [1, 2.5]\n")
    assert load_table_config(path).seat_bots == {"delay": [1, 2.5]}
    path.write_text(sim_table_toml("witch", 6))
    assert load_table_config(path).seat_bots == {}
    for bad in ("[3, 1]", "[-1, 2]", "[1]", '["1", 2]', "[1, 100]", "2"):
        path.write_text(sim_table_toml("witch", 6) + f"[seat_bots]\ndelay = {bad}\n")
        with pytest.raises(ConfigError) as got:
            load_table_config(path)
        assert "seat_bots.delay" in str(got.value) and "\n" not in str(got.value)
