"""Agents: things that choose actions through the protocol alone.

Every agent has ``step(state) -> action`` and ``restart()``, and is built
from a spec string with :func:`make`.

>>> import tileworks
>>> from tileworks.agents import make
>>> state = tileworks.load_game("kiln").new_initial_state()
>>> agent = make("random", seed=1)
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> agent.step(state) in state.legal_actions()
True
"""

from __future__ import annotations

from tileworks.agents.base import Agent
from tileworks.agents.random_agent import RandomAgent

AGENTS = {"random": RandomAgent}


def make(spec: str, seed: int | None = None) -> Agent:
    """Build an agent from its spec string (``random``)."""
    if not isinstance(spec, str) or spec.strip().lower() not in AGENTS:
        raise ValueError(f"unknown agent spec {spec!r}; valid specs: {', '.join(sorted(AGENTS))}")
    return AGENTS[spec.strip().lower()](seed=seed)


__all__ = ["AGENTS", "Agent", "RandomAgent", "make"]
