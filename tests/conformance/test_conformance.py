"""The conformance suite for the games tileworks ships: the same suite every
game uses, from :mod:`tileworks.testing.conformance` (plugins, such as
examples/dominoes, run it from their own tests)."""

from tileworks.testing.conformance import *  # noqa: F403

TILEWORKS_GAMES = ["azul", "kiln", "tiles", "tuileries"]
