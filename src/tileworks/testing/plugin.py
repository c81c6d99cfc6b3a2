"""The pytest plugin behind the conformance suite (loaded by pytest through
tileworks's ``pytest11`` entry point).

It adds ``--tileworks-game=NAME`` (repeatable) and parametrizes the suite's
fixtures: ``tileworks_config`` is each ``(game name, options)`` a game
declares in ``GameInfo.test_configs``, ``tileworks_game`` each game's
name, ``tileworks_seed`` each playout's seed; for the batched engines'
checks (:mod:`tileworks.testing.batched`), ``tileworks_batched_config`` each
``(game name, options)`` of ``GameInfo.batched_configs()`` and
``tileworks_batched_game`` each game's name, for the chosen games that
declare an engine. Which games: the command line's, else the test module's
``TILEWORKS_GAMES``, else every registered game.
"""

from __future__ import annotations

from typing import Any

import pytest


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("tileworks")
    group.addoption("--tileworks-game", action="append", default=[], metavar="NAME",
                    help="run the tileworks conformance suite for this game only (repeatable)")


def chosen_games(config: Any, module: Any) -> list[Any]:
    """The GameInfo of each game to check, in name order."""
    from tileworks.core.registry import registered_games

    known = {info.name: info for info in registered_games()}
    names = config.getoption("tileworks_game") or getattr(module, "TILEWORKS_GAMES", None) or sorted(known)
    unknown = [name for name in names if name not in known]
    if unknown:
        raise pytest.UsageError(
            f"--tileworks-game: unknown game {', '.join(map(repr, unknown))}; known games: {', '.join(sorted(known))}"
        )
    return [known[name] for name in sorted(set(names))]


def pytest_generate_tests(metafunc: Any) -> None:
    if "tileworks_config" in metafunc.fixturenames:
        cases, ids = [], []
        for info in chosen_games(metafunc.config, metafunc.module):
            for i, options in enumerate(info.test_configs):
                cases.append((info.name, dict(options)))
                ids.append(f"{info.name}-{i}")
        metafunc.parametrize("tileworks_config", cases, ids=ids)
    if "tileworks_game" in metafunc.fixturenames:
        names = [info.name for info in chosen_games(metafunc.config, metafunc.module)]
        metafunc.parametrize("tileworks_game", names, ids=names)
    batched = [info for info in chosen_games(metafunc.config, metafunc.module) if info.batched]
    if "tileworks_batched_config" in metafunc.fixturenames:
        cases = [(info.name, dict(options)) for info in batched for options in info.batched_configs()]
        ids = [f"{info.name}-{i}" for info in batched for i in range(len(info.batched_configs()))]
        metafunc.parametrize("tileworks_batched_config", cases, ids=ids, scope="module")
    if "tileworks_batched_game" in metafunc.fixturenames:
        metafunc.parametrize("tileworks_batched_game", [info.name for info in batched], ids=[i.name for i in batched])
    if "tileworks_seed" in metafunc.fixturenames:
        from tileworks.testing.conformance import PLAYOUTS

        metafunc.parametrize("tileworks_seed", range(PLAYOUTS), ids=str)
