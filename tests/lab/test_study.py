"""Study files: what a study plays, and every refusal, named by its line."""

from __future__ import annotations

import textwrap

import pytest

from tileworks.lab.study import StudyError, load_study, load_study_text

GOOD = """\
[study]
title = "KILN: heating up"
game = "kiln"
games = 4
seed = 7

[options]
players = 2

[grid]
goal = [12, 17]
heat_tokens = [[], [5, 8, 14, 17, 19, 23, 26]]

[[lineups]]
agents = ["greedy"]

[[lineups]]
name = "greedy against random"
agents = ["greedy", "random"]
weaker = "random"
games = 2
"""


def study(text=GOOD):
    return load_study_text(textwrap.dedent(text), name="s.toml")


def test_a_study_plays_the_grid_product_for_each_lineup():
    s = study()
    cells = s.cells()
    assert len(cells) == 8
    assert [c.key for c in cells[:4]] == [
        "goal=12,heat_tokens=none | all greedy", "goal=12,heat_tokens=5+8+14+17+19+23+26 | all greedy",
        "goal=17,heat_tokens=none | all greedy", "goal=17,heat_tokens=5+8+14+17+19+23+26 | all greedy"]
    assert cells[5].options == {"players": 2, "goal": 12, "heat_tokens": (5, 8, 14, 17, 19, 23, 26)}
    assert [c.games(s) for c in cells] == [4] * 4 + [2] * 4


def test_seats_rotate_and_a_single_agent_fills_every_seat():
    s = study()
    mixed = s.cells()[4]
    assert [mixed.lineup.seats(2, i) for i in range(2)] == [["greedy", "random"], ["random", "greedy"]]
    assert s.cells()[0].lineup.seats(2, 1) == ["greedy", "greedy"]


def test_a_games_seed_depends_on_its_cell_not_on_the_rest_of_the_grid():
    s = study()
    wider = study(GOOD.replace("goal = [12, 17]", "goal = [12, 17, 22]"))
    assert s.game_seed(s.cells()[0], 3) == wider.game_seed(wider.cells()[0], 3)
    assert s.game_seed(s.cells()[0], 3) != s.game_seed(s.cells()[0], 4)
    assert s.game_seed(s.cells()[0], 3) != s.game_seed(s.cells()[1], 3)
    assert s.fingerprint() == study(GOOD.replace("games = 4", "games = 40")).fingerprint()
    assert s.fingerprint() != wider.fingerprint()


def test_the_shipped_studies_are_valid():
    from pathlib import Path

    files = sorted((Path(__file__).parents[2] / "studies").glob("*.toml"))
    assert len(files) >= 5
    for path in files:
        assert load_study(path).cells()


@pytest.mark.parametrize(("change", "message"), [
    (("[options]", "[option]"), "s.toml line 7: unknown table [option]"),
    (('title = "KILN: heating up"', 'titel = "x"'), "s.toml line 2: unknown key 'titel' in [study]"),
    (('game = "kiln"', 'game = "chess"'), "s.toml line 3: unknown game 'chess'; games: azul, "),
    (('game = "kiln"', ""), "s.toml line 1: the study names no game"),
    (("games = 4", "games = 0"), "s.toml line 4: games (per cell) must be a whole number of at least 1, not 0"),
    (("seed = 7", 'seed = "x"'), "s.toml line 5: seed must be a whole number"),
    (("seed = 7", 'measures = ["fun"]'), "s.toml line 5: unknown measure 'fun'"),
    (("players = 2", "player = 2"), "s.toml line 8: unknown option 'player' for kiln"),
    (("players = 2", "players = 9"), "s.toml line 8: bad value 9 for option 'players'"),
    (("goal = [12, 17]", "gaol = [12, 17]"), "s.toml line 11: unknown option 'gaol' for kiln"),
    (("goal = [12, 17]", "goal = []"), "s.toml line 11: grid axis 'goal' must be a non-empty list"),
    (("goal = [12, 17]", "goal = 12"), "s.toml line 11: grid axis 'goal' must be a non-empty list"),
    (("goal = [12, 17]", "goal = [12, 170]"), "s.toml line 11: bad value 170 for option 'goal'"),
    (("goal = [12, 17]", "goal = [12, 12]"), "s.toml line 11: grid axis 'goal' lists a value twice"),
    (("goal = [12, 17]", "players = [2]"), "s.toml line 11: grid axis 'players' is also set in [options]"),
    (('agents = ["greedy"]\n', 'agents = ["greedy", "wizard"]\n'), "s.toml line 15: unknown agent 'wizard'"),
    (('agents = ["greedy"]\n', 'agents = ["mcts:seconds=1"]\n'), "s.toml line 15: agent spec 'mcts:seconds=1' has a time budget"),
    (('agents = ["greedy"]\n', 'agents = []\n'), "s.toml line 15: agents must be a non-empty list"),
    (('agents = ["greedy"]\n', 'agents = ["greedy", "random", "random"]\n'),
     "s.toml line 15: line-up 'greedy · random · random' seats 3 agents, but the study plays players = 2"),
    (('weaker = "random"', 'weaker = "mcts"'), "s.toml line 20: weaker = 'mcts' must name one of the line-up's"),
    (('weaker = "random"', 'stronger = "greedy"'), "s.toml line 20: unknown key 'stronger' in [[lineups]]"),
    (('name = "greedy against random"', 'name = "all greedy"'), "s.toml line 18: two line-ups are named 'all greedy'"),
    (("games = 2\n", "games = 3\n"), "s.toml line 21: games = 3 is not a multiple of 2 players"),
    (("[[lineups]]\nname", "[[lineup]]\nname"), "s.toml line 17: unknown table [lineup]"),
])
def test_a_bad_study_is_refused_naming_its_line(change, message):
    old, new = change
    assert old in GOOD
    with pytest.raises(StudyError) as caught:
        study(GOOD.replace(old, new, 1))
    assert str(caught.value).startswith(message), str(caught.value)


def test_a_grid_that_makes_an_invalid_game_is_refused_before_anything_runs():
    text = GOOD.replace("players = 2", 'variant = "advanced"').replace("goal = [12, 17]", "players = [2, 3]")
    text = text.replace('agents = ["greedy", "random"]', 'agents = ["greedy"]').replace('weaker = "random"\n', "")
    with pytest.raises(StudyError, match=r"s.toml line 10: the cell 'players=3,heat_tokens=none \| all greedy' "
                                         r"makes no valid game: bad value 3 for option 'players'"):
        study(text)


def test_a_learned_agent_is_refused_for_a_cell_it_has_no_network_for():
    """KILN to 12 points has no trained network (one for 17 at most), so the
    study stops before any game, naming the cell and the agent."""
    with pytest.raises(StudyError, match=r"s.toml line \d+: the cell 'goal=12,.*': net cannot play it: "
                                         r"(no trained network for kiln|kiln ships no trained network)"):
        study(GOOD.replace('agents = ["greedy"]', 'agents = ["net"]'))


def test_a_file_that_is_not_toml_or_has_no_lineup_is_refused(tmp_path):
    with pytest.raises(StudyError, match=r"s.toml: not valid TOML: .*line 2"):
        study('[study]\ngame = kiln\n')
    with pytest.raises(StudyError, match="the study has no line-up"):
        study('[study]\ngame = "kiln"\ngames = 2\n')
    with pytest.raises(StudyError, match="cannot read study file"):
        load_study(tmp_path / "missing.toml")
