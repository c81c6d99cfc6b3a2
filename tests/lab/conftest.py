from __future__ import annotations

import textwrap

import pytest

#: a small study: two Azul option sets, two line-ups (greedy games take ~30 ms)
SMALL = textwrap.dedent("""\
    [study]
    title = "Azul: a small study"
    game = "azul"
    games = 6
    seed = 11

    [grid]
    tiebreak = ["seed", "official"]

    [[lineups]]
    agents = ["greedy"]

    [[lineups]]
    name = "random against greedy"
    agents = ["random", "greedy"]
    weaker = "random"
""")


@pytest.fixture
def small_study(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(SMALL, encoding="utf-8")
    return path
