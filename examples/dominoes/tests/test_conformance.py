"""Dominoes passes the same conformance suite as the games tileworks ships:
one import line, and the game named."""

from tileworks.testing.conformance import *  # noqa: F403

TILEWORKS_GAMES = ["dominoes"]
