"""`kikimimi` with the toy game registered: lets tests run real CLI processes
(serve, replay) before or without any real game."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from kikimimi.cli import main  # noqa: E402
from kikimimi.contract.registry import register  # noqa: E402
from toygame import ToyGame  # noqa: E402

register(ToyGame)
sys.exit(main())
