"""Before a study runs: how many games it will play and how long that takes.

``plan_study`` plays a few games of each cell (the cell's own first games,
seeded as the run will seed them, so nothing is wasted on a different
game) and times them, then scales by the cell's games and the workers.
A study's cost is dominated by its slowest cells (search line-ups, more
players), so the plan lists every cell. A study that stops at a precision
is planned at the games an even cell needs (at most its ``games``): the
most it will play; lopsided cells stop sooner.

>>> from tileworks.lab.study import load_study_text
>>> study = load_study_text('[study]\\ngame = "azul"\\ngames = 100\\n[[lineups]]\\nagents = ["random"]\\n')
>>> plan = plan_study(study, workers=2, samples=2)
>>> plan.games, plan.cells[0].games, plan.seconds > 0
(100, 100, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tileworks.lab.precision import target_games
from tileworks.lab.study import Cell, Study


@dataclass
class CellPlan:
    cell: Cell
    games: int  # still to play
    seconds_a_game: float  # as timed on this machine

    @property
    def seconds(self) -> float:
        return self.games * self.seconds_a_game


@dataclass
class Plan:
    cells: list[CellPlan]
    workers: int
    already: int  # games the results folder already holds

    @property
    def games(self) -> int:
        return sum(c.games for c in self.cells)

    @property
    def seconds(self) -> float:
        """Wall time on ``workers`` processes of this machine's speed (games spread evenly)."""
        return sum(c.seconds for c in self.cells) / self.workers


def plan_study(study: Study, workers: int = 1, samples: int = 3, out: Path | None = None) -> Plan:
    """Time ``samples`` games of each cell and estimate the study's cost;
    with ``out``, count only the games that folder does not hold yet."""
    from tileworks.lab.run import Job, play_job

    held: dict[str, set[int]] = {}
    if out is not None and (Path(out) / "results.duckdb").exists():
        from tileworks.lab.run import load_rows

        for row in load_rows(out)[1]:
            held.setdefault(row["cell_key"], set()).add(row["game_index"])
    cells = []
    already = 0
    for cell in study.cells():
        total = cell.games(study)
        if study.precision is not None:  # an even cell's games before it stops (a lopsided one stops sooner)
            total = min(total, -(-target_games(study.precision) // cell.players) * cell.players)
        have = len(held.get(cell.key, set()) & set(range(total)))
        already += have
        indices = list(range(min(samples, total)))
        job = Job(study.game, cell.options, cell.number, cell.key, cell.lineup.name,
                  tuple((i, study.game_seed(cell, i), tuple(cell.lineup.seats(cell.players, i))) for i in indices))
        started = time.perf_counter()
        play_job(job)
        cells.append(CellPlan(cell, total - have, (time.perf_counter() - started) / len(indices)))
    return Plan(cells, workers, already)


def describe_time(seconds: float) -> str:
    """``42 s``, ``12 min``, ``3.5 h``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def plan_rows(plan: Plan) -> list[dict[str, Any]]:
    """The plan as table rows, for the command line."""
    return [{"cell": c.cell.number, "name": c.cell.key, "games": c.games, "a game": f"{1000 * c.seconds_a_game:.0f} ms",
             "time": describe_time(c.seconds / plan.workers)} for c in plan.cells]
