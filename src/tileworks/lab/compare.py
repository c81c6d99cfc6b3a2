"""Comparisons with a baseline cell, adjusted for multiple tests.

A designer asks "what does this rule change?": each cell is compared with
its baseline cell (the study's ``baseline``, by default the first value of
every grid axis, with the same line-up) on one number per measure, read
game by game:

- the first seat's share of the win (``balance``);
- the decisions a game (``duration``), the mean seat score (``scores``),
  the winning margin (``margin``), the lead changes (``lead_change``);
- the shared-win rate (``drawishness``), the shared top score
  (``tiebreak``), the comeback rate (``comeback``), the weaker agent's
  share of the win (``catch_up``), the branching factor (``complexity``).

Each difference has a 95% interval and a two-sided p-value. Independent
cells: Newcombe's interval and the pooled two-proportion z-test for rates,
Welch's interval and t-test for means. Paired cells (a study with
``paired = true`` plays the same chance seeds in every cell): the mean of
the game-by-game differences, with its t interval and the paired t-test,
which removes the luck the two cells share.

All the study's tests (every comparison, and each cell's chi-square test
of equal seats) form one family, adjusted by Holm's step-down method
(family-wise error 5%) or, with ``adjust = "bh"``, Benjamini and
Hochberg's (false discovery rate 5%), as statsmodels computes them.

>>> base = [{"game_index": i, "decisions": 40 + i % 3} for i in range(30)]
>>> longer = [{"game_index": i, "decisions": 49 + i % 3} for i in range(30)]
>>> d = difference_of(base, longer, lambda row: row["decisions"], kind="mean", paired=True)
>>> d["difference"], d["low"], d["high"], d["p"] < 0.001
(9.0, 9.0, 9.0, True)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tileworks.lab import measures as m

Row = dict[str, Any]

#: how a study's tests are adjusted: study key -> statsmodels' method
ADJUSTMENTS = {"holm": "holm", "bh": "fdr_bh"}


@dataclass(frozen=True)
class Quantity:
    """One number a measure is compared on, read from each game."""

    measure: str
    name: str  # shown in tables and the summary (translated there)
    kind: str  # "rate" (values in 0..1, a share) or "mean"
    read: Callable[[Row], float | None]  # None: the game does not count


def quantities(measures: Sequence[str], weaker: str | None, results: dict[str, Any]) -> list[Quantity]:
    """The quantities compared for a study's measures (a measure not
    defined for the game is not compared)."""
    found = []
    table = {
        "balance": ("first seat's win rate", "rate", m.first_seat_share),
        "duration": ("decisions a game", "mean", lambda row: float(row["decisions"])),
        "scores": ("mean score", "mean", lambda row: statistics.fmean(row["scores"])),
        "margin": ("winning margin", "mean", m.margin_of),
        "drawishness": ("shared-win rate", "rate", lambda row: float(len(row["winners"]) > 1)),
        "tiebreak": ("top score shared", "rate", lambda row: float(m.top_shared(row))),
        "lead_change": ("lead changes a game", "mean", lambda row: float(m.lead_changes(row["trajectory"]))),
        "comeback": ("comeback rate", "rate", lambda row: None if (came := m.comeback_of(row)) is None else float(came)),
        "complexity": ("branching factor", "mean",
                       lambda row: statistics.fmean(row["choices"]) if row.get("choices") else None),
    }
    for measure in measures:
        if measure == "catch_up":
            if weaker is not None:
                found.append(Quantity(measure, "weaker agent's win rate", "rate",
                                      lambda row, agent=weaker: m.agent_share(row, agent)))
            continue
        if measure not in table or not results.get(measure, {}).get("defined", True):
            continue
        name, kind, read = table[measure]
        found.append(Quantity(measure, name, kind, read))
    return found


def difference_of(base: Sequence[Row], rows: Sequence[Row], read: Callable[[Row], float | None], kind: str,
                  paired: bool) -> dict[str, Any]:
    """``rows``' value minus ``base``'s: difference, 95% interval, p-value, games."""
    from scipy import stats

    if paired:
        by_index = {row["game_index"]: read(row) for row in base}
        diffs = [value - by_index[row["game_index"]] for row in rows
                 if (value := read(row)) is not None and by_index.get(row["game_index"]) is not None]
        n = len(diffs)
        if n < 2:
            return _empty(n)
        interval = m.mean_interval(diffs)
        if interval["sd"] == 0:
            p = 1.0 if interval["mean"] == 0 else 0.0
            return {"difference": interval["mean"], "low": interval["mean"], "high": interval["mean"], "p": p,
                    "n": n, "paired": True}
        p = float(stats.ttest_1samp(diffs, 0.0).pvalue)
        return {"difference": interval["mean"], "low": interval["low"], "high": interval["high"], "p": p, "n": n,
                "paired": True}
    a = [v for row in rows if (v := read(row)) is not None]
    b = [v for row in base if (v := read(row)) is not None]
    if len(a) < 2 or len(b) < 2:
        return _empty(min(len(a), len(b)))
    if kind == "rate":
        d = m.difference(m.rate(sum(a), len(a)), m.rate(sum(b), len(b)))
        pooled = (sum(a) + sum(b)) / (len(a) + len(b))
        spread = math.sqrt(pooled * (1 - pooled) * (1 / len(a) + 1 / len(b)))
        p = 1.0 if spread == 0 else float(2 * stats.norm.sf(abs(d["difference"]) / spread))
        return {**d, "p": p, "n": min(len(a), len(b)), "paired": False}
    va, vb = statistics.variance(a), statistics.variance(b)
    d = statistics.fmean(a) - statistics.fmean(b)
    se = math.sqrt(va / len(a) + vb / len(b))
    if se == 0:
        return {"difference": d, "low": d, "high": d, "p": 1.0 if d == 0 else 0.0, "n": min(len(a), len(b)),
                "paired": False}
    df = se ** 4 / ((va / len(a)) ** 2 / (len(a) - 1) + (vb / len(b)) ** 2 / (len(b) - 1))
    half = float(stats.t.ppf(0.975, df)) * se
    p = float(2 * stats.t.sf(abs(d) / se, df))
    return {"difference": d, "low": d - half, "high": d + half, "p": p, "n": min(len(a), len(b)), "paired": False}


def _empty(n: int) -> dict[str, Any]:
    nan = float("nan")
    return {"difference": nan, "low": nan, "high": nan, "p": nan, "n": n, "paired": False}


def adjust(p_values: Sequence[float], method: str = "holm") -> list[float]:
    """Adjusted p-values for one family of tests (NaN stays NaN).

    >>> [round(p, 3) for p in adjust([0.01, 0.04, 0.03], "holm")]
    [0.03, 0.06, 0.06]
    >>> [round(p, 3) for p in adjust([0.01, 0.04, 0.03], "bh")]
    [0.03, 0.04, 0.04]
    """
    from statsmodels.stats.multitest import multipletests

    known = [i for i, p in enumerate(p_values) if not math.isnan(p)]
    adjusted = [float("nan")] * len(p_values)
    if known:
        _reject, corrected, _, _ = multipletests([p_values[i] for i in known], alpha=0.05,
                                                 method=ADJUSTMENTS[method])
        for i, value in zip(known, corrected, strict=True):
            adjusted[i] = float(value)
    return adjusted


@dataclass
class Comparison:
    """One cell against its baseline on one quantity."""

    cell: int
    baseline: int
    quantity: Quantity
    result: dict[str, Any]
    adjusted_p: float = float("nan")

    @property
    def survives(self) -> bool:
        """Whether the difference holds after the adjustment (at 5%)."""
        return not math.isnan(self.adjusted_p) and self.adjusted_p < 0.05


@dataclass
class Family:
    """Every comparison and seat test of a study, adjusted together."""

    method: str
    comparisons: list[Comparison] = field(default_factory=list)
    seat_tests: dict[int, dict[str, float]] = field(default_factory=dict)  # cell -> {"p", "adjusted_p"}

    @property
    def tests(self) -> int:
        return sum(1 for c in self.comparisons if not math.isnan(c.result["p"])) + sum(
            1 for t in self.seat_tests.values() if not math.isnan(t["p"]))

    @property
    def surviving(self) -> int:
        return sum(1 for c in self.comparisons if c.survives) + sum(
            1 for t in self.seat_tests.values() if t["adjusted_p"] < 0.05)


def compare_cells(cells: Sequence[Any], rows: dict[int, list[Row]], results: dict[int, Any],
                  baseline_of: dict[int, int], measures: Sequence[str], paired: bool, method: str) -> Family:
    """Compare every cell with its baseline on every quantity; adjust every
    test of the study (comparisons and seat tests) as one family."""
    family = Family(method)
    for cell in cells:
        base = baseline_of.get(cell.number)
        if base is None or base == cell.number or not rows[cell.number] or not rows[base]:
            continue
        for quantity in quantities(measures, cell.lineup.weaker, results[cell.number]):
            family.comparisons.append(Comparison(cell.number, base, quantity, difference_of(
                rows[base], rows[cell.number], quantity.read, quantity.kind, paired)))
    if "balance" in measures:
        for cell in cells:
            if rows[cell.number]:
                family.seat_tests[cell.number] = {"p": results[cell.number]["balance"]["p_value"]}
    p_values = [c.result["p"] for c in family.comparisons] + [t["p"] for t in family.seat_tests.values()]
    adjusted = adjust(p_values, method)
    for comparison, value in zip(family.comparisons, adjusted, strict=False):
        comparison.adjusted_p = value
    for test, value in zip(family.seat_tests.values(), adjusted[len(family.comparisons):], strict=True):
        test["adjusted_p"] = value
    return family
