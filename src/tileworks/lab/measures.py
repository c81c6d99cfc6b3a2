"""The balance measures: what a study's games say, each with its uncertainty.

Every measure reads rows of finished games (one dict per game, the columns
of the results store: ``agents``, ``scores``, ``returns``, ``winners``,
``decisions``, ``turns``, ``trajectory``) and gives estimates with 95%
intervals: Wilson score intervals for rates, Student's t for means,
Newcombe's hybrid score interval for a difference of two rates, and
Pearson's chi-square for "no seat advantage". Names follow the game-evaluation
literature (Browne's *Automatic generation and evaluation of recombination
games*, 2008, and Ludii's metrics) where it has one; docs/balance.md says how
each is computed.

>>> rows = [{"players": 2, "agents": ["greedy", "greedy"], "scores": [10, 8], "returns": [1.0, 0.0],
...          "winners": [0], "decisions": 40, "turns": 30, "trajectory": [[0, 0], [10, 8]]}] * 6
>>> balance(rows)["seats"][0]["rate"]
1.0
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from tileworks.arena import wilson  # the arena's Wilson score interval, shared

Row = dict[str, Any]


def rate(successes: float, trials: int) -> dict[str, Any]:
    """A rate with its Wilson interval."""
    low, high = wilson(successes, trials)
    return {"count": successes, "n": trials, "rate": successes / trials if trials else float("nan"),
            "low": low, "high": high}


def mean_interval(values: Sequence[float]) -> dict[str, Any]:
    """Mean, standard deviation and 95% Student's t interval of the mean.

    >>> m = mean_interval([1, 2, 3, 4])
    >>> m["mean"], round(m["low"], 3), round(m["high"], 3)
    (2.5, 0.446, 4.554)
    """
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": float("nan"), "sd": float("nan"), "low": float("nan"), "high": float("nan")}
    mean = statistics.fmean(values)
    if n == 1:
        return {"n": 1, "mean": mean, "sd": 0.0, "low": float("nan"), "high": float("nan")}
    from scipy.stats import t

    sd = statistics.stdev(values)
    half = float(t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "sd": sd, "low": mean - half, "high": mean + half}


def difference(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """``a``'s rate minus ``b``'s, with Newcombe's hybrid score interval
    (method 10 of Newcombe, 1998), for two independent rates.

    >>> d = difference(rate(56, 70), rate(48, 80))
    >>> round(d["difference"], 4), round(d["low"], 4), round(d["high"], 4)
    (0.2, 0.0524, 0.3339)
    """
    p1, p2 = a["rate"], b["rate"]
    l1, u1, l2, u2 = a["low"], a["high"], b["low"], b["high"]
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return {"difference": d, "low": low, "high": high}


def credits(row: Row) -> list[float]:
    """Each seat's share of the win: 1 for a sole winner, 1/k for k tied winners."""
    winners = row["winners"]
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(row["scores"]))]


def in_turn_order(row: Row, values: Sequence[Any]) -> list[Any]:
    """``values`` by seat, reordered so that the seat that moved first comes
    first (``first_player``; seat 0 where the row does not say).

    >>> in_turn_order({"first_player": 2}, ["a", "b", "c"])
    ['c', 'a', 'b']
    """
    first = row.get("first_player") or 0
    return [values[(first + k) % len(values)] for k in range(len(values))]


def first_seat_share(row: Row) -> float:
    """The share of the win of the seat that moved first (1, 1/k or 0)."""
    return in_turn_order(row, credits(row))[0]


def agent_share(row: Row, agent: str) -> float | None:
    """``agent``'s share of the win, over the seats it held (None: it did not play)."""
    seats = [seat for seat, spec in enumerate(row["agents"]) if spec == agent]
    if not seats:
        return None
    credit = credits(row)
    return sum(credit[seat] for seat in seats) / len(seats)


def margin_of(row: Row) -> float | None:
    """The sole winner's score minus the best other score (None: a shared win)."""
    if len(row["winners"]) != 1:
        return None
    winner = row["winners"][0]
    return row["scores"][winner] - max(s for seat, s in enumerate(row["scores"]) if seat != winner)


def top_shared(row: Row) -> bool:
    """Whether two or more seats ended on the top score."""
    return row["scores"].count(max(row["scores"])) > 1


def comeback_of(row: Row) -> bool | None:
    """Whether the sole winner was alone in last place two thirds of the way
    through (None: a shared win, or no trajectory)."""
    if len(row["winners"]) != 1 or not row["trajectory"]:
        return None
    return was_last(row["trajectory"], row["winners"][0])


def balance(rows: Sequence[Row]) -> dict[str, Any]:
    """Win rate by position in turn order (Browne's and Ludii's *balance*:
    "seat 1" is the seat that moved first, which chance picks in some
    games), the first mover's edge over a fair share (Ludii's *advantage*),
    and Pearson's chi-square test of "every position wins equally often"
    (p-value; small means a seat advantage). ``balance_score`` is Ludii's
    1 - (best seat rate - worst)."""
    if not rows:
        return {"seats": [], "chi2": float("nan"), "p_value": float("nan"), "balance_score": float("nan")}
    players = len(rows[0]["scores"])
    wins = [0.0] * players
    for row in rows:
        for seat, share in enumerate(in_turn_order(row, credits(row))):
            wins[seat] += share
    n = len(rows)
    seats = [rate(w, n) for w in wins]
    total = sum(wins)
    chi2, p_value = float("nan"), float("nan")
    if total > 0:
        from scipy.stats import chi2 as chi2_distribution

        expected = total / players
        chi2 = sum((w - expected) ** 2 / expected for w in wins)
        p_value = float(chi2_distribution.sf(chi2, players - 1))
    fair = 1 / players
    first = seats[0]
    advantage = {"advantage": first["rate"] - fair, "low": first["low"] - fair, "high": first["high"] - fair}
    rates = [s["rate"] for s in seats]
    return {"seats": seats, "chi2": chi2, "p_value": p_value, "first_player_advantage": advantage,
            "balance_score": 1 - (max(rates) - min(rates))}


def agents(rows: Sequence[Row]) -> dict[str, dict[str, Any]]:
    """Win rate by agent over the seats it held (shared wins count 1/k)."""
    wins: dict[str, float] = {}
    seats: dict[str, int] = {}
    for row in rows:
        for spec, share in zip(row["agents"], credits(row), strict=True):
            wins[spec] = wins.get(spec, 0.0) + share
            seats[spec] = seats.get(spec, 0) + 1
    return {spec: rate(wins[spec], seats[spec]) for spec in wins}


def scores(rows: Sequence[Row]) -> dict[str, Any]:
    """Score mean and spread: per seat in turn order, and over every seat of every game."""
    if not rows:
        return {"seats": [], "all": mean_interval([])}
    players = len(rows[0]["scores"])
    ordered = [in_turn_order(row, row["scores"]) for row in rows]
    per_seat = [mean_interval([scores_[seat] for scores_ in ordered]) for seat in range(players)]
    # the seats of one game are not independent (one seat's points are often
    # another's loss), so the interval is over games: each game's mean seat score
    every = mean_interval([statistics.fmean(row["scores"]) for row in rows])
    every["sd"] = statistics.stdev(s for row in rows for s in row["scores"]) if len(rows) * players > 1 else 0.0
    return {"seats": per_seat, "all": every}


def margin(rows: Sequence[Row]) -> dict[str, Any]:
    """Winning margin: the sole winner's score minus the best other score
    (games with one winner). Small margins mean close games."""
    return mean_interval([value for row in rows if (value := margin_of(row)) is not None])


def duration(rows: Sequence[Row]) -> dict[str, Any]:
    """Game length (Browne's and Ludii's *duration*) in decisions and in turns."""
    return {"decisions": mean_interval([row["decisions"] for row in rows]),
            "turns": mean_interval([row["turns"] for row in rows])}


def drawishness(rows: Sequence[Row]) -> dict[str, Any]:
    """Shared-win rate (Browne's and Ludii's *drawishness*): games that end with
    two or more winners, a draw among all seats included."""
    return rate(sum(1 for row in rows if len(row["winners"]) > 1), len(rows))


def tiebreak(rows: Sequence[Row], winner_rule: str = "score+tiebreak") -> dict[str, Any]:
    """How often the top score is shared, and how often a tie-break then
    decides: fewer winners than seats tied on the top score.

    Only a game whose winner is the top score (``winner_rule``, see
    :class:`tileworks.core.game.Game`) has ties on it, and only one with a
    tie-break rule has games it decides; otherwise the result says
    ``"defined": False`` for what is not defined (a race or a game won by
    going out has scores, but they do not choose the winner).

    >>> tiebreak([{"scores": [4, 4], "winners": [1]}], winner_rule="other")["defined"]
    False
    """
    if winner_rule == "other":
        return {"defined": False, "tied": rate(0, 0), "decided": rate(0, 0)}
    tied = decided = 0
    for row in rows:
        level = row["scores"].count(max(row["scores"]))  # seats on the top score
        if level > 1:
            tied += 1
            if len(row["winners"]) < level:
                decided += 1
    n = len(rows)
    return {"defined": True, "tied": rate(tied, n),
            "decided": rate(decided, n) if winner_rule == "score+tiebreak" else rate(0, 0)}


def leaders(scores_now: Sequence[float]) -> int | None:
    """The sole leader's seat, or None when the top score is shared."""
    top = max(scores_now)
    at_top = [seat for seat, s in enumerate(scores_now) if s == top]
    return at_top[0] if len(at_top) == 1 else None


def lead_changes(trajectory: Sequence[Sequence[float]]) -> int:
    """How many times the sole leader changes over the turns (a shared lead
    is not a change; the next sole leader is compared with the last one).

    >>> lead_changes([[0, 0], [3, 0], [3, 4], [5, 5], [6, 5], [6, 9]])
    3
    """
    changes, last = 0, None
    for scores_now in trajectory:
        leader = leaders(scores_now)
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes


def scores_during_play(rows: Sequence[Row]) -> bool:
    """Whether any game has a sole leader before its last turn: a game that
    scores only at the end has no lead to change or to come back from.

    >>> scores_during_play([{"trajectory": [[0, 0], [0, 0], [3, 5]]}])
    False
    """
    return any(leaders(now) is not None for row in rows for now in row["trajectory"][:-1])


def lead_change(rows: Sequence[Row]) -> dict[str, Any]:
    """Lead changes per game, and Browne's *lead change*: the share of turns
    after which the sole leader differs from the one before. Not defined
    (``"defined": False``) where the games score only at the end."""
    if rows and not scores_during_play(rows):
        return {"defined": False, "per_game": mean_interval([]), "share_of_turns": mean_interval([])}
    counts = [lead_changes(row["trajectory"]) for row in rows]
    shares = [c / (len(row["trajectory"]) - 1) for c, row in zip(counts, rows, strict=True)
              if len(row["trajectory"]) > 1]
    return {"defined": True, "per_game": mean_interval(counts), "share_of_turns": mean_interval(shares)}


def was_last(trajectory: Sequence[Sequence[float]], seat: int, fraction: float = 2 / 3) -> bool:
    """Whether ``seat`` alone had the lowest score after ``fraction`` of the turns.

    >>> was_last([[0, 0], [1, 4], [2, 6], [9, 7]], 0)
    True
    """
    turn = max(0, math.ceil(len(trajectory) * fraction) - 1)
    now = trajectory[turn]
    return all(now[seat] < s for other, s in enumerate(now) if other != seat)


def comeback(rows: Sequence[Row]) -> dict[str, Any]:
    """Comeback rate (related to Ludii's *drama*): of the games with one winner,
    the share whose winner was alone in last place two thirds of the way through.
    Not defined (``"defined": False``) where the games score only at the end."""
    found = [came for row in rows if (came := comeback_of(row)) is not None]
    result = rate(sum(found), len(found))
    result["defined"] = not rows or scores_during_play(rows)
    return result


def drama(trajectory: Sequence[Sequence[float]], winner: int) -> float:
    """How far behind the eventual winner was, on average over the turns:
    the leader's score minus the winner's, as a share of the winner's final
    score (0: the winner was never behind). A score-based form of Ludii's
    *drama*, which reads a state evaluation instead of the score.

    >>> drama([[0, 0], [4, 0], [4, 2], [5, 10]], 1)
    0.15
    """
    final = max(1.0, trajectory[-1][winner])
    return statistics.fmean(max(now) - now[winner] for now in trajectory) / final


def uncertainty(trajectory: Sequence[Sequence[float]], winner: int) -> float:
    """The share of turns after which the eventual winner was not the sole
    leader: how long the outcome stayed open (after Browne's *uncertainty*).

    >>> uncertainty([[0, 0], [4, 0], [4, 2], [5, 10]], 1)
    0.75
    """
    return sum(1 for now in trajectory if leaders(now) != winner) / len(trajectory)


def complexity(rows: Sequence[Row]) -> dict[str, Any]:
    """Complexity from the game-evaluation literature (Browne; Ludii's
    *branching factor*, *decision moves*): the mean number of legal moves a
    decision (branching factor), the share of decisions with one legal move
    (forced moves), decisions a turn, and how long the outcome stayed open:
    uncertainty and drama (games with one winner that score during play).
    Each is a per-game value with a t interval over games. Games stored
    before the lab recorded each decision's choices count only in the last
    three."""
    recorded = [row for row in rows if row.get("choices")]
    decided = [row for row in rows if len(row["winners"]) == 1 and row["trajectory"]]
    during = bool(rows) and scores_during_play(rows)
    return {
        "recorded": len(recorded),
        "branching": mean_interval([statistics.fmean(row["choices"]) for row in recorded]),
        "forced": mean_interval([sum(1 for c in row["choices"] if c == 1) / len(row["choices"]) for row in recorded]),
        "per_turn": mean_interval([row["decisions"] / row["turns"] for row in rows if row["turns"]]),
        "uncertainty": mean_interval([uncertainty(row["trajectory"], row["winners"][0]) for row in decided]
                                     if during else []),
        "drama": mean_interval([drama(row["trajectory"], row["winners"][0]) for row in decided] if during else []),
    }


def catch_up(rows: Sequence[Row], weaker: str) -> dict[str, Any]:
    """The weaker agent's win rate against the stronger one(s) in this cell;
    compare cells with :func:`difference` to see a rule help it catch up."""
    return agents(rows).get(weaker, rate(0, 0))


def measure_cell(rows: Sequence[Row], measures: Sequence[str], weaker: str | None = None,
                 winner_rule: str = "score") -> dict[str, Any]:
    """Every asked measure of one cell's games (``winner_rule``: the game's,
    see :class:`tileworks.core.game.Game`)."""
    functions = {"balance": balance, "agents": agents, "scores": scores, "margin": margin, "duration": duration,
                 "drawishness": drawishness, "tiebreak": tiebreak, "lead_change": lead_change,
                 "comeback": comeback, "complexity": complexity}
    result: dict[str, Any] = {"games": len(rows)}
    for name in measures:
        if name == "catch_up":
            if weaker is not None:
                result[name] = catch_up(rows, weaker)
        elif name == "tiebreak":
            result[name] = tiebreak(rows, winner_rule)
        else:
            result[name] = functions[name](rows)
    return result
