"""The games tileworks ships, one package each. Nothing here registers them:
each is an entry point of the ``tileworks.games`` group (see pyproject.toml),
found by ``tileworks.core.registry`` exactly as another package's games are."""

from pathlib import Path

#: the shipped games' rules documents (``GAME.md``, ``GAME.ja.md``)
RULES = Path(__file__).resolve().parent.parent / "rules"
