"""Seat and agent apart: a logistic win model for cells where different agents meet.

"The first seat wins 57.8%" mixes two things when the agents differ: the
seat, and which agent happened to sit in it. For each cell whose line-up
seats different agents, every seat of every game is one observation
(won, with a shared win counting 1/k), explained by the agent, whether the
seat moved first, and their interaction::

    won ~ agent * first            (a binomial GLM with the logit link)

fitted by statsmodels with standard errors clustered by game (the seats
of one game are not independent: one seat's win is another's loss). The
model gives each agent's win rate moving first and moving later, with
95% intervals (the delta method), the first seat's effect for each agent
as an odds ratio, and the interaction's p-value: whether moving first
helps one agent more than the other (with two seats the two agents' seat
effects are one and the same, and there is no interaction to test).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tileworks.lab import measures as m

Row = dict[str, Any]


def seat_agent_model(rows: Sequence[Row]) -> dict[str, Any] | None:
    """Fit the model to one cell's games; None where it cannot say anything
    (one agent, too few games, or an agent that always or never wins).

    Returns ``{"agents": {agent: {"first": {rate, low, high}, "later": {...},
    "odds_ratio": {value, low, high}}}, "interaction_p": p, "games": n}``.
    """
    import numpy as np
    import pandas as pd
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    agents = sorted({spec for row in rows for spec in row["agents"]})
    if len(agents) < 2 or len(rows) < 8:
        return None
    records = []
    for index, row in enumerate(rows):
        first = row.get("first_player") or 0
        for seat, (spec, won) in enumerate(zip(row["agents"], m.credits(row), strict=True)):
            records.append({"won": won, "agent": spec, "first": int(seat == first), "game": index})
    data = pd.DataFrame.from_records(records)
    by_group = data.groupby(["agent", "first"])["won"].agg(["mean", "size"])
    if len(by_group) < 2 * len(agents) or ((by_group["mean"] <= 0) | (by_group["mean"] >= 1)).any():
        return None  # a group never or always wins: the logit is infinite
    formula = "won ~ C(agent) * first"
    try:
        fitted = smf.glm(formula, data=data, family=sm.families.Binomial()).fit(
            cov_type="cluster", cov_kwds={"groups": data["game"]})
    except (ValueError, np.linalg.LinAlgError):
        return None
    grid = pd.DataFrame([{"agent": a, "first": f} for a in agents for f in (1, 0)])
    predicted = fitted.get_prediction(grid).summary_frame(alpha=0.05)
    result: dict[str, Any] = {"agents": {}, "games": len(rows)}
    for (agent, first), (_, line) in zip(grid.itertuples(index=False), predicted.iterrows(), strict=True):
        entry = result["agents"].setdefault(agent, {})
        entry["first" if first else "later"] = {"rate": float(line["mean"]), "low": float(line["mean_ci_lower"]),
                                                "high": float(line["mean_ci_upper"])}
    # the first seat's effect for each agent: exp(first + first:agent) as an odds ratio
    names = list(fitted.params.index)
    cov = fitted.cov_params()
    for agent in agents:
        terms = ["first"] + ([f"C(agent)[T.{agent}]:first"] if f"C(agent)[T.{agent}]:first" in names else [])
        weights = np.array([1.0 if name in terms else 0.0 for name in names])
        estimate = float(weights @ fitted.params.values)
        spread = math.sqrt(float(weights @ cov.values @ weights))
        result["agents"][agent]["odds_ratio"] = {"value": math.exp(estimate), "low": math.exp(estimate - 1.96 * spread),
                                                 "high": math.exp(estimate + 1.96 * spread)}
    interactions = [i for i, name in enumerate(names) if name.endswith(":first")]
    restriction = np.zeros((len(interactions), len(names)))
    for line, column in enumerate(interactions):
        restriction[line, column] = 1.0
    # with two seats, one agent's first seat is the other's second: the two
    # seat effects are one odds ratio, and there is no interaction to test
    two_seats = all(len(row["agents"]) == 2 for row in rows)
    result["interaction_p"] = (float(fitted.wald_test(restriction, scalar=True).pvalue)
                               if interactions and not two_seats else float("nan"))
    return result
