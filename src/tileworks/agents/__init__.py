"""Agents: things that choose actions through the protocol alone.

Every agent has ``step(state) -> action`` and ``restart()``, and is built
from a spec string with :func:`make`::

    SPEC   := NAME [":" PARAMS]
    PARAMS := KEY=VALUE ("," KEY=VALUE)*

The agents: ``random`` (uniform among legal actions), ``greedy`` (one
decision of lookahead with the game's heuristic evaluation) and ``mcts``
(search: ``mcts:hard``, ``mcts:iterations=2000,c=1.2``, ``mcts:seconds=2``;
levels beginner, easy, medium, hard, expert).

>>> import tileworks
>>> from tileworks.agents import make
>>> state = tileworks.load_game("kiln").new_initial_state()
>>> agent = make("greedy", seed=1)
>>> while state.is_chance_node():
...     state.apply_action(state.chance_outcomes()[0][0])
>>> agent.step(state) in state.legal_actions()
True
"""

from __future__ import annotations

from typing import Any

from tileworks.agents.base import Agent
from tileworks.agents.greedy import GreedyAgent
from tileworks.agents.mcts import LEVELS, MCTSAgent
from tileworks.agents.random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent}
#: parameters each agent accepts in its spec; a bare word is a difficulty level
PARAMETERS: dict[str, dict[str, type]] = {
    "random": {},
    "greedy": {},
    "mcts": {"iterations": int, "seconds": float, "c": float, "depth": int},
}
#: agents that take a named difficulty level (mcts:hard)
LEVELLED = {"mcts": LEVELS}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a spec into its agent name and typed parameters.

    >>> parse_spec("greedy")
    ('greedy', {})
    """
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"empty agent spec {spec!r}; valid specs: {', '.join(sorted(AGENTS))}")
    name, _, params = spec.strip().lower().partition(":")
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r} in spec {spec!r}; valid specs: {', '.join(sorted(AGENTS))}")
    allowed = PARAMETERS[name]
    values: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in params.split(","))):
        key, sep, text = item.partition("=")
        if not sep and item in LEVELLED.get(name, {}):
            values["level"] = item
            continue
        if not sep or key not in allowed:
            accepted = sorted(allowed)
            if name in LEVELLED:
                accepted.append(f"a level ({', '.join(LEVELLED[name])})")
            accepted = ", ".join(accepted) or "no parameters"
            raise ValueError(f"bad parameter {item!r} in agent spec {spec!r}: {name} takes {accepted}")
        try:
            values[key] = allowed[key](text)
        except ValueError:
            raise ValueError(f"bad value {text!r} for {key} in agent spec {spec!r}") from None
    return name, values


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of specs, one per seat. A piece of the
    form ``KEY=VALUE`` continues the spec before it, so parameter lists keep
    their commas.

    >>> split_specs("mcts:iterations=2000,c=1.2,greedy")
    ['mcts:iterations=2000,c=1.2', 'greedy']
    >>> split_specs("human, random")
    ['human', 'random']
    """
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def make(spec: str, seed: int | None = None, *, reproducible: bool = False) -> Agent:
    """Build an agent from its spec string (see the module docs).

    ``reproducible``: the agent must choose the same moves on any machine,
    so a level searches its whole iteration budget with no time cap, and a
    spec that gives a time budget (``seconds=``) is refused.

    >>> make("mcts:easy", reproducible=True).seconds is None
    True
    >>> make("mcts:seconds=1", reproducible=True)
    Traceback (most recent call last):
    ...
    ValueError: agent spec 'mcts:seconds=1' has a time budget, so its moves would depend on the machine's speed; give iterations= instead
    """
    name, params = parse_spec(spec)
    if reproducible:
        check_reproducible(spec)
    agent = AGENTS[name](seed=seed, **params)
    if reproducible and hasattr(agent, "seconds"):
        agent.seconds = None  # a level's cap on thinking time
    return agent


def check_reproducible(spec: str) -> None:
    """Refuse a spec whose moves depend on time (see :func:`make`)."""
    if "seconds" in parse_spec(spec)[1]:
        raise ValueError(f"agent spec {spec!r} has a time budget, so its moves would depend on the machine's speed; "
                         "give iterations= instead")


__all__ = ["AGENTS", "LEVELS", "Agent", "GreedyAgent", "MCTSAgent", "RandomAgent", "check_reproducible", "make", "parse_spec", "split_specs"]
