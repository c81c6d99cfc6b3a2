"""Agents: things that choose actions through the protocol alone.

Every agent has ``step(state) -> action`` and ``restart()``, and is built
from a spec string with :func:`make`::

    SPEC   := NAME [":" PARAMS]
    PARAMS := KEY=VALUE ("," KEY=VALUE)*

The agents: ``random`` (uniform among legal actions), ``greedy`` (one
decision of lookahead with the game's heuristic evaluation), ``mcts``
(search: ``mcts:hard``, ``mcts:iterations=2000,c=1.2``, ``mcts:seconds=2``;
levels beginner, easy, medium, hard, expert), and, for a game that ships a
trained network, ``net`` (the network's policy, one forward pass a move;
``net:temperature=0.5`` samples) and ``alpha`` (search guided by the
network: ``alpha:seconds=1``, ``alpha:iterations=400,c=1.5``; ``mix=0.5`` values
its leaves half by the network, half by a rollout; ``batch=16`` asks the
network about 16 leaves at once; ``guide=0.5`` takes half its prior from
greedy's one-step look; ``fpu=0.25`` values a move not yet tried below those
tried, not as even).

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

import math
from typing import Any, Callable

from tileworks.agents.base import Agent
from tileworks.agents.greedy import GreedyAgent
from tileworks.agents.learned import AlphaAgent, NetAgent
from tileworks.agents.mcts import LEVELS, MCTSAgent
from tileworks.agents.random_agent import RandomAgent
from tileworks.core import Game

AGENTS: dict[str, type[Agent]] = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MCTSAgent, "net": NetAgent,
                                  "alpha": AlphaAgent}


def _at_least(kind: type, low: float, strict: bool = False, most: float | None = None) -> Callable[[str], Any]:
    """A reader of a parameter's text: a finite ``kind`` at least ``low``
    (above it when ``strict``) and at most ``most`` if given; ValueError
    naming the bounds otherwise."""

    bounds = f"{'above' if strict else 'at least'} {low}" + (f" and at most {most}" if most is not None else "")

    def read(text: str) -> Any:
        value = kind(text)
        if not math.isfinite(value) or value < low or (strict and value == low) or (most is not None and value > most):
            raise ValueError(f"must be a number {bounds}")
        return value

    read.kind = kind  # type: ignore[attr-defined]
    return read


#: parameters each agent accepts in its spec, with the reader that checks
#: each value; a bare word is a difficulty level
PARAMETERS: dict[str, dict[str, Callable[[str], Any]]] = {
    "random": {},
    "greedy": {},
    "mcts": {"iterations": _at_least(int, 1), "seconds": _at_least(float, 0, strict=True),
             "c": _at_least(float, 0), "depth": _at_least(int, 0)},
    "net": {"temperature": _at_least(float, 0)},
    "alpha": {"iterations": _at_least(int, 1), "seconds": _at_least(float, 0, strict=True), "c": _at_least(float, 0),
              "mix": _at_least(float, 0, most=1), "batch": _at_least(int, 1),
              "guide": _at_least(float, 0, most=1), "fpu": _at_least(float, 0)},
}
#: agents that take a named difficulty level (mcts:hard)
LEVELLED = {"mcts": LEVELS}
#: the most a hosted computer seat may spend on one decision: every
#: parameter at most the strongest level's (mcts: ``expert``'s iterations and
#: seconds, the deepest rollout any level plays, and an exploration constant
#: well past every game's own). A server refuses specs beyond these and
#: searches every decision within them (see :func:`make`).
SERVED_LIMITS: dict[str, dict[str, float]] = {
    "mcts": {
        "iterations": max(iterations for iterations, _, _ in LEVELS.values()),
        "seconds": max(seconds for _, seconds, _ in LEVELS.values()),
        "depth": max(depth for _, _, depth in LEVELS.values() if depth is not None),
        "c": 10.0,
    },
    "net": {"temperature": 10.0},
    "alpha": {"iterations": max(iterations for iterations, _, _ in LEVELS.values()),
              "seconds": max(seconds for _, seconds, _ in LEVELS.values()), "c": 10.0, "batch": 64},
}


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a spec into its agent name and checked, typed parameters.

    >>> parse_spec("mcts:hard,c=0.5")
    ('mcts', {'level': 'hard', 'c': 0.5})
    >>> parse_spec("mcts:seconds=-1")
    Traceback (most recent call last):
    ...
    ValueError: bad value '-1' for seconds in agent spec 'mcts:seconds=-1': must be a number above 0
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
        except ValueError as error:
            why = f": {error}" if str(error).startswith("must") else ""
            raise ValueError(f"bad value {text!r} for {key} in agent spec {spec!r}{why}") from None
    return name, values


def spec_pattern() -> str:
    """A regular expression (for schemas and forms) that every well-formed
    spec matches, written in lower case as :func:`parse_spec` reads it; the
    values are checked further when parsed.

    >>> import re
    >>> [bool(re.fullmatch(spec_pattern(), s)) for s in ("greedy", "mcts:hard,c=0.5", "mcts:fast")]
    [True, True, False]
    """
    number = {int: "[0-9]+", float: "[0-9]+(?:\\.[0-9]+)?(?:e[+-]?[0-9]+)?"}
    alternatives = []
    for name in sorted(AGENTS):
        words = [*LEVELLED.get(name, {}),
                 *(f"{key}={number[reader.kind]}" for key, reader in PARAMETERS[name].items())]  # type: ignore[attr-defined]
        piece = f"(?:{'|'.join(words)})"
        alternatives.append(f"{name}(?::{piece}(?:,{piece})*)?" if words else name)
    return f"^(?:{'|'.join(alternatives)})$"


def over_limit(spec: str, limits: dict[str, dict[str, float]] = SERVED_LIMITS) -> tuple[str, float] | None:
    """The first parameter of ``spec`` above ``limits``, with its limit
    (None: the spec is within them).

    >>> over_limit("mcts:expert") is None
    True
    >>> over_limit("mcts:iterations=1000000000000")
    ('iterations', 12000)
    """
    name, params = parse_spec(spec)
    for key, cap in limits.get(name, {}).items():
        if key in params and params[key] > cap:
            return key, cap
    return None


def check_limits(spec: str, limits: dict[str, dict[str, float]] = SERVED_LIMITS) -> None:
    """Refuse (ValueError) a spec that is malformed or asks for more than ``limits`` allow.

    >>> check_limits("mcts:seconds=1e9")
    Traceback (most recent call last):
    ...
    ValueError: agent spec 'mcts:seconds=1e9': seconds is at most 9.5 here
    """
    found = over_limit(spec, limits)
    if found is not None:
        raise ValueError(f"agent spec {spec!r}: {found[0]} is at most {found[1]:g} here")


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


def make(spec: str, seed: int | None = None, *, reproducible: bool = False,
         limits: dict[str, dict[str, float]] | None = None) -> Agent:
    """Build an agent from its spec string (see the module docs).

    ``reproducible``: the agent must choose the same moves on any machine,
    so a level searches its whole iteration budget with no time cap, and a
    spec that gives a time budget (``seconds=``) is refused.

    ``limits`` (e.g. :data:`SERVED_LIMITS`): each parameter is cut to its
    limit, and an agent with a time budget always keeps the limit's, so no
    decision, whatever its spec, searches longer.

    >>> make("mcts:easy", reproducible=True).seconds is None
    True
    >>> make("mcts:seconds=1", reproducible=True)
    Traceback (most recent call last):
    ...
    ValueError: agent spec 'mcts:seconds=1' has a time budget, so its moves would depend on the machine's speed; give iterations= instead
    >>> capped = make("mcts:iterations=1000000", limits=SERVED_LIMITS)
    >>> capped.iterations, capped.seconds
    (12000, 9.5)
    """
    name, params = parse_spec(spec)
    if reproducible:
        check_reproducible(spec)
    caps = (limits or {}).get(name, {})
    for key, cap in caps.items():
        if key in params:
            params[key] = type(params[key])(min(params[key], cap))
    agent = AGENTS[name](seed=seed, **params)
    if reproducible and hasattr(agent, "seconds"):
        agent.seconds = None  # a level's cap on thinking time
    if "seconds" in caps and hasattr(agent, "seconds"):
        agent.seconds = min(agent.seconds or caps["seconds"], caps["seconds"])
    return agent


def check_plays(spec: str, game: Game) -> None:
    """Refuse a spec that cannot play ``game`` with its options, before the
    game starts (``net`` and ``alpha`` need a network trained for them).

    >>> import tileworks
    >>> check_plays("mcts:easy", tileworks.load_game("tiles"))
    >>> check_plays("net", tileworks.load_game("azul", variant="grey"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: no trained network for azul with {"players": 2, "round_limit": 100, "tiebreak": "seed", "variant": "grey"}; it ships networks for: ...
    """
    make(spec).check_game(game)


def check_reproducible(spec: str) -> None:
    """Refuse a spec whose moves depend on time (see :func:`make`)."""
    if "seconds" in parse_spec(spec)[1]:
        raise ValueError(f"agent spec {spec!r} has a time budget, so its moves would depend on the machine's speed; "
                         "give iterations= instead")


__all__ = ["AGENTS", "LEVELS", "SERVED_LIMITS", "Agent", "AlphaAgent", "GreedyAgent", "MCTSAgent", "NetAgent", "RandomAgent", "check_limits", "check_plays", "check_reproducible", "make", "over_limit", "parse_spec", "spec_pattern", "split_specs"]
