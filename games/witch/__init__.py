"""闇に笑う魔女 (Witch laughing in the dark): a hidden-role game on `kikimimi.roles`."""
from .game import WitchGame

__all__ = ["WitchGame"]
