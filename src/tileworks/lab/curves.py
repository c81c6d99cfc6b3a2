"""Response curves for a numeric sweep: how a measure moves with an option.

A grid axis written ``goal = {from = 10, to = 30, step = 2}`` is a numeric
sweep. For each line-up (and each value of the other axes) the games of
all its cells are fitted together, game by game, against the option's
value ``x``:

- game length: ordinary least squares, ``decisions ~ x + x²``;
- the first seat's share of the win: a binomial GLM with the logit link,
  ``first ~ x + x²`` (a shared win counts 1/k).

The quadratic term is dropped when the sweep has fewer than four values.
statsmodels gives each fitted curve a 95% confidence band for the mean
(the delta method for the GLM); the report draws the curve with its band
over each cell's own mean and interval, so a reader sees both the trend
and how well it fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tileworks.lab import measures as m

#: what is fitted: key -> (name, family, how a game is read)
RESPONSES = {
    "decisions": ("decisions a game", "gaussian", lambda row: float(row["decisions"])),
    "first_seat": ("first seat's win rate", "binomial", m.first_seat_share),
}


@dataclass
class Curve:
    """One fitted response: along ``axis``, for the cells of one series."""

    axis: str
    series: str  # the line-up and any other axes' values
    response: str  # a key of RESPONSES
    xs: list[float]  # where the curve is drawn
    mean: list[float]
    low: list[float]
    high: list[float]
    points: list[dict[str, float]]  # each cell: x, mean, low, high, games
    degree: int
    p_trend: float  # the joint test that the curve is flat (every x term zero)


def response_curves(study: Any, cells: list[Any], rows: dict[int, list[dict[str, Any]]]) -> list[Curve]:
    """Every response curve of the study's numeric sweeps."""
    curves = []
    for axis in study.sweeps:
        groups: dict[str, list[Any]] = {}
        for cell in cells:
            others = ", ".join(f"{k}={v}" for k, v in cell.axes.items() if k != axis)
            name = f"{cell.lineup.name}" + (f" · {others}" if others else "")
            groups.setdefault(name, []).append(cell)
        for series, members in groups.items():
            played = [c for c in members if rows[c.number]]
            if len({c.axes[axis] for c in played}) < 3:
                continue
            for response in RESPONSES:
                curve = _fit(axis, series, response, played, rows)
                if curve is not None:
                    curves.append(curve)
    return curves


def _fit(axis: str, series: str, response: str, cells: list[Any], rows: dict[int, list[dict[str, Any]]]) -> Curve | None:
    import numpy as np
    import statsmodels.api as sm

    _name, family, read = RESPONSES[response]
    xs, ys, points = [], [], []
    for cell in sorted(cells, key=lambda c: c.axes[axis]):
        values = [read(row) for row in rows[cell.number]]
        x = float(cell.axes[axis])
        xs += [x] * len(values)
        ys += values
        if family == "binomial":
            r = m.rate(sum(values), len(values))
            points.append({"x": x, "mean": r["rate"], "low": r["low"], "high": r["high"], "games": len(values)})
        else:
            r = m.mean_interval(values)
            points.append({"x": x, "mean": r["mean"], "low": r["low"], "high": r["high"], "games": len(values)})
    distinct = len({p["x"] for p in points})
    degree = 2 if distinct >= 4 else 1
    centre = float(np.mean(xs))  # centred: x and x² stay apart numerically

    def design(values):
        values = np.asarray(values, dtype=float) - centre
        return sm.add_constant(np.column_stack([values ** d for d in range(1, degree + 1)]), has_constant="add")

    endog = np.asarray(ys, dtype=float)
    if family == "binomial":
        if endog.min() == endog.max():
            return None  # always or never: no curve to fit
        model = sm.GLM(endog, design(xs), family=sm.families.Binomial())
    else:
        model = sm.OLS(endog, design(xs))
    try:
        fitted = model.fit()
    except (ValueError, np.linalg.LinAlgError):
        return None
    grid = np.linspace(min(xs), max(xs), 60)
    frame = fitted.get_prediction(design(grid)).summary_frame(alpha=0.05)
    low, high = ("mean_ci_lower", "mean_ci_upper")
    restriction = np.eye(degree + 1)[1:]
    p_trend = float(fitted.wald_test(restriction, scalar=True).pvalue)
    return Curve(axis, series, response, [float(x) for x in grid], [float(v) for v in frame["mean"]],
                 [float(v) for v in frame[low]], [float(v) for v in frame[high]], points, degree, p_trend)
