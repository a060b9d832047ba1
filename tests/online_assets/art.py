"""The generator static/src/draw_online.py, loaded as a module (static/src is no package)."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "src" / "draw_online.py"
_spec = importlib.util.spec_from_file_location("draw_online", SCRIPT)
assert _spec and _spec.loader
draw = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(draw)

STATIC = SCRIPT.parents[1]
CARDS = draw.CARDS
RANKS = draw.RANKS
FACES = draw.FACES
BACKS = draw.BACKS
AVATARS = draw.AVATARS
LEVELS = draw.LEVELS
SOUNDS = draw.SOUNDS
