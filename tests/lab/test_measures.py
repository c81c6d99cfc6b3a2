"""The balance measures on hand-built outcome sets whose answers are known."""

from __future__ import annotations

import math

import pytest

from tileworks.lab import measures as m


def game(scores, winners, trajectory=None, agents=None, decisions=30, turns=None):
    trajectory = trajectory or [[0.0] * len(scores), list(scores)]
    n = len(scores)
    return {"players": n, "agents": agents or ["greedy"] * n, "scores": list(scores),
            "returns": [1 / len(winners) if s in winners else 0.0 for s in range(n)], "winners": list(winners),
            "decisions": decisions, "turns": turns or len(trajectory), "trajectory": trajectory}


def test_wilson_interval_matches_the_textbook_values():
    # Newcombe (1998), table I: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775
    assert [round(x, 4) for x in m.wilson(81, 263)] == [0.2553, 0.3662]
    assert [round(x, 4) for x in m.wilson(0, 10)] == [0.0, 0.2775]


def test_the_first_seat_winning_60_of_100_two_player_games_is_a_seat_advantage():
    rows = [game([10, 5], [0])] * 60 + [game([5, 10], [1])] * 40
    result = m.balance(rows)
    first, second = result["seats"]
    assert first["rate"] == 0.6 and second["rate"] == 0.4
    assert result["chi2"] == pytest.approx(4.0)  # (60-50)²/50 + (40-50)²/50
    assert result["p_value"] == pytest.approx(0.0455, abs=1e-4)
    assert result["first_player_advantage"]["advantage"] == pytest.approx(0.1)
    assert result["first_player_advantage"]["low"] == pytest.approx(m.wilson(60, 100)[0] - 0.5)
    assert result["balance_score"] == pytest.approx(0.8)


def test_even_seats_show_no_advantage_and_shared_wins_count_half():
    rows = [game([10, 5, 0], [0]), game([5, 10, 0], [1]), game([0, 5, 10], [2]), game([7, 7, 0], [0, 1])]
    result = m.balance(rows)
    assert [s["count"] for s in result["seats"]] == [1.5, 1.5, 1.0]
    assert result["p_value"] > 0.5
    assert m.drawishness(rows) == {**m.rate(1, 4)}


def test_seats_are_counted_in_turn_order_when_chance_picks_the_first_player():
    # the seat that moved first won all four games, whichever seat it was
    rows = [{**game([10, 5, 0], [0]), "first_player": 0}, {**game([0, 10, 5], [1]), "first_player": 1},
            {**game([5, 0, 10], [2]), "first_player": 2}, {**game([0, 10, 5], [1]), "first_player": 1}]
    result = m.balance(rows)
    assert [s["count"] for s in result["seats"]] == [4.0, 0.0, 0.0]
    assert result["p_value"] < 0.02
    assert [s["mean"] for s in m.scores(rows)["seats"]] == [10, 5, 0]


def test_win_rate_by_agent_follows_the_agent_through_the_seats():
    rows = [game([9, 3], [0], agents=["greedy", "random"]), game([4, 8], [1], agents=["random", "greedy"]),
            game([5, 5], [0, 1], agents=["greedy", "random"])]
    result = m.agents(rows)
    assert result["greedy"]["count"] == 2.5 and result["greedy"]["n"] == 3
    assert result["random"]["count"] == 0.5
    assert m.catch_up(rows, "random")["rate"] == pytest.approx(1 / 6)


def test_score_mean_spread_and_its_t_interval():
    rows = [game([s, 0], [0]) for s in (1, 2, 3, 4)]
    seat = m.scores(rows)["seats"][0]
    assert seat["mean"] == 2.5 and seat["sd"] == pytest.approx(math.sqrt(5 / 3))
    assert (round(seat["low"], 3), round(seat["high"], 3)) == (0.446, 4.554)  # t(0.975, 3) = 3.182


def test_winning_margin_counts_only_games_with_one_winner():
    rows = [game([20, 15, 3], [0]), game([10, 18, 12], [1]), game([9, 9, 1], [0, 1])]
    result = m.margin(rows)
    assert result["n"] == 2 and result["mean"] == 5.5


def test_duration_in_decisions_and_turns():
    rows = [game([1, 0], [0], decisions=d, turns=t) for d, t in ((40, 30), (50, 34))]
    result = m.duration(rows)
    assert result["decisions"]["mean"] == 45 and result["turns"]["mean"] == 32


def test_a_tie_on_points_decided_by_the_tie_break_and_one_that_is_shared():
    rows = [game([30, 30], [1]), game([30, 30], [0, 1]), game([30, 20], [0]), game([25, 30, 30], [2])]
    result = m.tiebreak(rows)
    assert result["tied"]["count"] == 3 and result["decided"]["count"] == 2


def test_lead_changes_ignore_shared_leads():
    # leader: none, A, B, (tie), A, B -> three changes in five turns after the first
    path = [[0, 0], [3, 0], [3, 4], [5, 5], [6, 5], [6, 9]]
    rows = [game([6, 9], [1], trajectory=path)]
    result = m.lead_change(rows)
    assert result["per_game"]["mean"] == 3
    assert result["share_of_turns"]["mean"] == pytest.approx(3 / 5)


def test_a_comeback_is_a_winner_alone_in_last_place_two_thirds_through():
    behind = [[0, 0, 0], [1, 4, 3], [2, 6, 5], [9, 7, 6]]  # seat 0 last after turn 2 of 3, then wins
    tied_last = [[0, 0, 0], [1, 1, 3], [2, 2, 5], [9, 7, 6]]  # seat 0 shares last place
    rows = [game([9, 7, 6], [0], trajectory=behind), game([9, 7, 6], [0], trajectory=tied_last),
            game([9, 7, 6], [0, 1], trajectory=behind)]
    result = m.comeback(rows)
    assert result["n"] == 2 and result["count"] == 1


def test_the_change_in_a_weaker_agents_win_rate_has_newcombes_interval():
    # Newcombe (1998), example (e): 56/70 against 48/80 -> 0.0524 to 0.3339
    d = m.difference(m.rate(56, 70), m.rate(48, 80))
    assert (round(d["difference"], 4), round(d["low"], 4), round(d["high"], 4)) == (0.2, 0.0524, 0.3339)


def test_measure_cell_computes_what_the_study_asks():
    rows = [game([10, 5], [0], agents=["greedy", "random"])] * 4
    result = m.measure_cell(rows, ["balance", "catch_up"], weaker="random")
    assert set(result) == {"games", "balance", "catch_up"} and result["catch_up"]["count"] == 0
    assert "catch_up" not in m.measure_cell(rows, ["catch_up"], weaker=None)


def test_games_that_score_only_at_the_end_have_no_lead_changes_or_comebacks_defined():
    # Tiles-like scoring: every seat at zero until the last turn
    end_only = [[0, 0], [0, 0], [0, 0], [7, 4]]
    rows = [game([7, 4], [0], trajectory=end_only), game([3, 9], [1], trajectory=[[0, 0], [0, 0], [3, 9]])]
    assert m.lead_change(rows)["defined"] is False
    assert m.comeback(rows)["defined"] is False
    during = [game([6, 9], [1], trajectory=[[0, 0], [3, 0], [3, 4], [6, 9]])]
    assert m.lead_change(during)["defined"] is True and m.lead_change(during)["per_game"]["mean"] == 1


def test_the_tie_break_is_measured_only_where_the_score_decides_and_a_rule_breaks_ties():
    rows = [game([30, 30], [1]), game([30, 30], [0, 1]), game([30, 20], [0])]
    azul = m.tiebreak(rows, "score+tiebreak")
    assert azul["defined"] and azul["tied"]["count"] == 2 and azul["decided"]["count"] == 1
    tuileries = m.tiebreak(rows, "score")  # a tie on the top score is a shared win
    assert tuileries["tied"]["count"] == 2 and tuileries["decided"]["n"] == 0
    # Block Dominoes: 0 - 0 with one winner is a game won by going out, not a tie broken
    dominoes = m.tiebreak([game([0, 0], [1])], "other")
    assert dominoes["defined"] is False and dominoes["tied"]["n"] == 0


def test_the_all_seats_score_interval_counts_games_not_seats():
    # each game gives 10 points between two seats: the seats are perfectly dependent
    rows = [game([s, 10 - s], [0 if s > 5 else 1]) for s in (2, 3, 7, 8)]
    every = m.scores(rows)["all"]
    assert every["mean"] == 5 and every["n"] == 4  # four games, not eight seats
    assert every["low"] == every["high"] == 5  # every game's mean seat score is 5: no uncertainty
    assert every["sd"] == pytest.approx(math.sqrt(sum((s - 5) ** 2 for s in (2, 3, 7, 8, 8, 7, 3, 2)) / 7))


def test_complexity_counts_choices_forced_moves_and_how_long_the_outcome_stayed_open():
    # two decisions a turn; the second game has two forced moves of four
    a = game([5, 10], [1], trajectory=[[0, 0], [4, 0], [4, 2], [5, 10]], decisions=8, turns=4)
    a["choices"] = [10, 10, 20, 20, 30, 30, 40, 40]
    b = game([9, 3], [0], trajectory=[[1, 0], [2, 0], [9, 3]], decisions=4, turns=2)
    b["choices"] = [1, 5, 1, 5]
    result = m.complexity([a, b])
    assert result["recorded"] == 2
    assert result["branching"]["mean"] == pytest.approx((25 + 3) / 2)
    assert result["forced"]["mean"] == pytest.approx((0 + 0.5) / 2)
    assert result["per_turn"]["mean"] == 2
    # the winner of a led after one turn of four (uncertainty 3/4), b led throughout (0)
    assert result["uncertainty"]["mean"] == pytest.approx(0.375)
    assert result["drama"]["mean"] == pytest.approx((0.15 + 0) / 2)


def test_complexity_of_games_that_score_only_at_the_end_has_no_drama():
    rows = [game([7, 4], [0], trajectory=[[0, 0], [0, 0], [7, 4]])]
    rows[0]["choices"] = [3, 1, 2]
    result = m.complexity(rows)
    assert result["branching"]["mean"] == 2 and result["forced"]["mean"] == pytest.approx(1 / 3)
    assert result["uncertainty"]["n"] == result["drama"]["n"] == 0
