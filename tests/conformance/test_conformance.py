"""The conformance suite for the shipped games (and any plugin installed
beside them): the same suite every game uses, from
:mod:`tileworks.testing.conformance`."""

from tileworks.testing.conformance import *  # noqa: F403
