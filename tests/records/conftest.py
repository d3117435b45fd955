import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def club(tmp_path):
    from kikimimi.records import Club

    with Club(tmp_path / "club.sqlite") as c:
        yield c
