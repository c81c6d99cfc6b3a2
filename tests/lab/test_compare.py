"""Comparisons with the baseline: known answers, pairing, and the adjustment for many tests."""

from __future__ import annotations

import random

import pytest

from tileworks.lab import compare as c
from tileworks.lab.measures import first_seat_share
from tileworks.lab.study import load_study_text


def games(decisions, first_wins=None):
    first_wins = first_wins or [1] * len(decisions)
    return [{"game_index": i, "decisions": d, "scores": [1, 0], "winners": [0] if w else [1], "agents": ["a", "b"],
             "trajectory": [], "first_player": 0} for i, (d, w) in enumerate(zip(decisions, first_wins, strict=True))]


def test_welchs_interval_and_test_for_a_longer_game():
    from scipy import stats

    base, longer = [40, 42, 45, 41, 39, 44, 43], [48, 50, 47, 52, 49, 51]
    d = c.difference_of(games(base), games(longer), lambda row: row["decisions"], kind="mean", paired=False)
    welch = stats.ttest_ind(longer, base, equal_var=False)
    assert d["difference"] == pytest.approx(49.5 - 42)
    assert d["p"] == pytest.approx(welch.pvalue)
    interval = welch.confidence_interval(0.95)
    assert (d["low"], d["high"]) == (pytest.approx(interval.low), pytest.approx(interval.high))


def test_a_first_seat_rate_difference_has_newcombes_interval():
    # Newcombe (1998), example (e): 56/70 against 48/80 -> 0.0524 to 0.3339
    cell = games([30] * 70, [1] * 56 + [0] * 14)
    base = games([30] * 80, [1] * 48 + [0] * 32)
    d = c.difference_of(base, cell, first_seat_share, kind="rate", paired=False)
    assert (round(d["difference"], 4), round(d["low"], 4), round(d["high"], 4)) == (0.2, 0.0524, 0.3339)
    assert d["p"] == pytest.approx(0.00805, abs=5e-5)  # z = 0.2 / 0.0755 = 2.65, pooled rate 104/150


def test_pairing_removes_the_luck_two_cells_share():
    rng = random.Random(3)
    luck = [rng.gauss(0, 8) for _ in range(60)]  # the deal: long or short games in both cells
    base = games([round(50 + x) for x in luck])
    longer = games([round(52 + x + rng.choice((-1, 0, 1))) for x in luck])
    unpaired = c.difference_of(base, longer, lambda row: row["decisions"], kind="mean", paired=False)
    paired = c.difference_of(base, longer, lambda row: row["decisions"], kind="mean", paired=True)
    assert unpaired["low"] < 0 < unpaired["high"] and unpaired["p"] > 0.05  # lost in the noise
    assert 1.5 < paired["low"] < paired["high"] < 2.5 and paired["p"] < 1e-6


def test_holm_and_benjamini_hochberg_adjust_one_family():
    p_values = [0.001, 0.012, 0.02, 0.04, float("nan")]
    holm = c.adjust(p_values, "holm")
    assert holm[:4] == pytest.approx([0.004, 0.036, 0.04, 0.04]) and holm[4] != holm[4]
    assert c.adjust(p_values, "bh")[:4] == pytest.approx([0.004, 0.024, 0.02 * 4 / 3, 0.04])


STUDY = '''[study]
game = "azul"
games = 4
seed = 2
{extra}
[grid]
tiebreak = ["seed", "official"]
variant = ["standard", "grey"]
[[lineups]]
agents = ["greedy"]
[[lineups]]
name = "duel"
agents = ["random", "greedy"]
'''


def test_paired_cells_play_the_same_seeds_and_unpaired_ones_do_not():
    paired = load_study_text(STUDY.format(extra="paired = true"))
    cells = paired.cells()
    assert {paired.game_seed(cell, 3) for cell in cells} == {paired.game_seed(cells[0], 3)}
    assert paired.game_seed(cells[0], 3) != paired.game_seed(cells[0], 2)
    unpaired = load_study_text(STUDY.format(extra=""))
    assert len({unpaired.game_seed(cell, 3) for cell in unpaired.cells()}) == len(cells)
    assert unpaired.fingerprint() != paired.fingerprint()


def test_each_cell_is_compared_with_the_baseline_of_its_own_line_up():
    study = load_study_text(STUDY.format(extra='baseline = {variant = "grey"}'))
    names = {cell.number: cell.key for cell in study.cells()}
    baseline = {names[cell]: names[base] for cell, base in study.baseline_of().items()}
    # the axis the baseline does not name keeps the cell's own value
    assert baseline["tiebreak=official,variant=standard | duel"] == "tiebreak=official,variant=grey | duel"
    assert baseline["tiebreak=seed,variant=standard | all greedy"] == "tiebreak=seed,variant=grey | all greedy"
    across = load_study_text(STUDY.format(extra='baseline = {lineup = "duel"}'))
    assert set(across.baseline_of().values()) == {4}  # seed, standard, duel


@pytest.mark.parametrize("extra, message", [
    ('baseline = {colour = "red"}', "baseline names 'colour', which is no grid axis; axes: tiebreak, variant"),
    ('baseline = {variant = "gold"}', "baseline: bad value 'gold' for option 'variant'"),
    ('baseline = {lineup = "trio"}', "baseline names line-up 'trio', which the study does not have"),
    ('baseline = "grey"', "baseline must be a table of grid values"),
    ('paired = "yes"', "paired must be true or false, not 'yes'"),
    ('adjust = "bonferroni"', 'adjust must be "holm"'),
])
def test_a_bad_baseline_pairing_or_adjustment_is_refused_naming_its_line(extra, message):
    from tileworks.lab.study import StudyError

    with pytest.raises(StudyError, match="study line 5: " + message.replace("(", r"\(").replace(")", r"\)")):
        load_study_text(STUDY.format(extra=extra))


def duel(games_with_a_first, a_wins_first, a_wins_later):
    """2-player games of agents A and B, A moving first in every other game."""
    rows = []
    for i in range(2 * games_with_a_first):
        k = i // 2
        if i % 2 == 0:
            won = k < a_wins_first
            rows.append({"agents": ["A", "B"], "scores": [0, 0], "winners": [0] if won else [1], "first_player": 0})
        else:
            won = k < a_wins_later
            rows.append({"agents": ["B", "A"], "scores": [0, 0], "winners": [1] if won else [0], "first_player": 0})
    return rows


def test_the_seat_and_agent_model_reads_the_first_seat_by_who_sits_in_it():
    from tileworks.lab.seat_agent import seat_agent_model

    # A wins 70 of 100 moving first and 55 of 100 moving later: the first seat wins 57.5% overall,
    # 70% when the stronger A moves first and 45% when the weaker B does
    model = seat_agent_model(duel(100, 70, 55))
    a, b = model["agents"]["A"], model["agents"]["B"]
    assert a["first"]["rate"] == pytest.approx(0.70) and b["first"]["rate"] == pytest.approx(0.45)
    assert a["later"]["rate"] == pytest.approx(0.55) and b["later"]["rate"] == pytest.approx(0.30)
    assert a["first"]["low"] < 0.70 < a["first"]["high"] and a["first"]["high"] - a["first"]["low"] < 0.2
    # moving first multiplies the odds by (0.70/0.30) / (0.55/0.45) = 1.91 for either agent
    assert a["odds_ratio"]["value"] == pytest.approx(1.909, abs=1e-3) == b["odds_ratio"]["value"]
    assert a["odds_ratio"]["low"] > 1  # the first seat's edge holds with the agents apart
    assert model["interaction_p"] != model["interaction_p"]  # two seats: nothing to test


def test_the_model_declines_a_cell_where_an_agent_never_wins():
    from tileworks.lab.seat_agent import seat_agent_model

    assert seat_agent_model(duel(20, 20, 20)) is None
    assert seat_agent_model(duel(2, 1, 1)) is None  # too few games


def test_a_strength_sweep_asks_again_at_each_strength_and_pits_the_weakest_against_the_strongest():
    study = load_study_text('[study]\ngame = "azul"\ngames = 4\n[options]\nplayers = 2\n[grid]\nvariant = ["standard", "grey"]\n'
                            '[sweep]\nagents = ["random", "greedy", "mcts:beginner"]\ngames = 6\n')
    assert [lineup.name for lineup in study.lineups] == ["all random", "all greedy", "all mcts:beginner",
                                                         "random against mcts:beginner"]
    upset = study.lineups[-1]
    assert upset.agents == ("random", "mcts:beginner") and upset.weaker == "random" and upset.games == 6
    assert study.strengths == ("random", "greedy", "mcts:beginner")
    # each strength's grey cell is compared with the same strength's standard cell
    keys = {cell.number: cell.key for cell in study.cells()}
    assert {keys[c]: keys[b] for c, b in study.baseline_of().items()}["variant=grey | all greedy"] == \
        "variant=standard | all greedy"


def test_a_strength_sweep_may_play_each_strength_its_own_number_of_games():
    study = load_study_text('[study]\ngame = "azul"\ngames = 4\n[options]\nplayers = 2\n'
                            '[sweep]\nagents = ["greedy", "mcts:easy"]\ngames = {greedy = 1200, "mcts:easy" = 60}\n')
    assert {lineup.name: lineup.games for lineup in study.lineups} == {
        "all greedy": 1200, "all mcts:easy": 60, "greedy against mcts:easy": 60}
    # a strength left out of the table plays the study's games
    study = load_study_text('[study]\ngame = "azul"\ngames = 4\n[sweep]\nagents = ["greedy", "mcts:easy"]\n'
                            'games = {greedy = 100}\n')
    assert [lineup.games for lineup in study.lineups] == [100, None]


@pytest.mark.parametrize("sweep, message", [
    ('agents = ["greedy"]', r"\[sweep\] agents must list two or more different agent specs"),
    ('agents = ["random", "greedy"]\ngames = {net = 10}', r"\[sweep\] games names 'net', which is not one of"),
    ('agents = ["random", "greedy"]\ngames = {greedy = 0}', r"games \(per cell\) must be a whole number"),
    ('agents = ["greedy", "wizard"]', "unknown agent 'wizard'"),
    ('agents = ["random", "greedy"]\nlevel = 2', r"unknown key 'level' in \[sweep\]"),
])
def test_a_bad_strength_sweep_is_refused(sweep, message):
    from tileworks.lab.study import StudyError

    with pytest.raises(StudyError, match=message):
        load_study_text(f'[study]\ngame = "azul"\ngames = 4\n[sweep]\n{sweep}\n')


def test_a_weaker_agent_is_measured_even_when_the_study_lists_other_measures():
    # the strength sweep's weakest against strongest gives the upset rate through the catch-up measure
    study = load_study_text('[study]\ngame = "azul"\ngames = 4\nmeasures = ["duration"]\n[options]\nplayers = 2\n'
                            '[sweep]\nagents = ["random", "greedy"]\n')
    assert study.measures == ("duration", "catch_up")
    assert load_study_text('[study]\ngame = "azul"\ngames = 4\nmeasures = ["duration"]\n[[lineups]]\n'
                           'agents = ["greedy"]\n').measures == ("duration",)


def test_a_baseline_naming_one_axis_compares_at_each_value_of_the_others():
    study = load_study_text('[study]\ngame = "azul"\ngames = 4\nbaseline = {variant = "standard"}\n'
                            '[grid]\nvariant = ["standard", "grey"]\nplayers = [2, 3]\n[[lineups]]\nagents = ["greedy"]\n')
    keys = {cell.number: cell.key for cell in study.cells()}
    pairs = {keys[c]: keys[b] for c, b in study.baseline_of().items()}
    assert pairs["variant=grey,players=3 | all greedy"] == "variant=standard,players=3 | all greedy"
    assert pairs["variant=grey,players=2 | all greedy"] == "variant=standard,players=2 | all greedy"
    # with no baseline every axis takes its first value
    default = load_study_text('[study]\ngame = "azul"\ngames = 4\n[grid]\nvariant = ["standard", "grey"]\n'
                              'players = [2, 3]\n[[lineups]]\nagents = ["greedy"]\n')
    keys = {cell.number: cell.key for cell in default.cells()}
    assert {keys[c]: keys[b] for c, b in default.baseline_of().items()}["variant=grey,players=3 | all greedy"] == \
        "variant=standard,players=2 | all greedy"
