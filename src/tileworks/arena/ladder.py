"""A ladder: every agent against every other, rated together.

Each pair of agents plays ``games`` two-player games as an arena match
(seats alternating, records in ``OUT/PAIR/games`` and a ledger in
``OUT/PAIR/results.jsonl``, seeded by the ladder's seed and the pair), so
a ladder resumes as an arena run does. All the games
are then rated together with openskill's Plackett-Luce model, taken round
by round (the first game of every pair, then the second...), so that no
pair's games all come before another's (a pair's seed follows from its
two agents, so a ladder run again with one more agent keeps every game it
has and plays only the new pairs); the ladder ranks the agents by
their rating's ordinal (μ − 3σ, a conservative estimate) and gives each
pair's score with its 95% interval.

>>> pairs(["random", "greedy", "net"])
[('random', 'greedy'), ('random', 'net'), ('greedy', 'net')]
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from tileworks.arena import ArenaConfig, RunConfig, note_result, play_game, saved_results, times_a_move, wilson
from tileworks.arena.runners import make_runner


def pairs(agents: list[str]) -> list[tuple[str, str]]:
    """Every pair of agents, in the order given."""
    return [(a, b) for i, a in enumerate(agents) for b in agents[i + 1:]]


def folder_name(pair: tuple[str, str]) -> str:
    """A pair's folder: its specs with what a file name cannot hold replaced.

    >>> folder_name(("mcts:seconds=0.5", "alpha:iterations=100"))
    'mcts_seconds=0.5--alpha_iterations=100'
    """
    return "--".join(re.sub(r"[^A-Za-z0-9=.,+-]", "_", spec) for spec in pair)


@dataclass
class LadderConfig(RunConfig):
    """A ladder's run: ``games`` between each pair of ``agents`` (two players)."""

    def __post_init__(self) -> None:
        if len(set(self.agents)) != len(self.agents):
            raise ValueError("a ladder lists each agent once")
        if len(self.agents) < 2:
            raise ValueError("a ladder needs at least two agents")
        if self.options.get("players", 2) != 2:
            raise ValueError(f"a ladder is played between two seats, not players={self.options['players']}")
        # each pair's match checks its agents, the game and the options now
        # (a pair's seed follows from its agents, so a ladder given one more agent keeps the games it has)
        self.matches = [ArenaConfig(self.game, list(pair), self.games, Path(self.out) / folder_name(pair),
                                    seed=self.seed * 1_000_003 + zlib.crc32(folder_name(pair).encode()) % 1_000_003,
                                    workers=self.workers, options={**self.options, "players": 2}, ray=self.ray)
                        for pair in pairs(self.agents)]


def _play_pair(job: tuple[int, ArenaConfig, int]) -> tuple[int, dict[str, Any]]:
    number, match, index = job
    return number, play_game(match, index)


def run_ladder(config: LadderConfig, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play every game not yet saved, round by round across the pairs, then
    rate them all; ``progress(done, total)`` after each game. Returns the
    summary (also written to ``OUT/ladder.json``)."""
    rounds = [(number, index) for index in range(config.games) for number in range(len(config.matches))]
    results: dict[tuple[int, int], dict[str, Any]] = {}
    for number, match in enumerate(config.matches):
        results.update(((number, index), result) for index, result in saved_results(match).items())
    resumed = len(results)
    todo = [(number, config.matches[number], index) for number, index in rounds if (number, index) not in results]
    if progress:
        progress(len(results), len(rounds))
    runner = make_runner(config.workers, config.ray)
    try:
        for number, result in runner.results(_play_pair, todo):
            note_result(config.matches[number], result)
            results[number, result["index"]] = result
            if progress:
                progress(len(results), len(rounds))
    finally:
        runner.close()
    summary = rate(config.agents, [results[key] for key in rounds])
    summary.update({"game": config.game, "options": config.matches[0].options, "games_per_pair": config.games,
                    "seed": config.seed, "resumed": resumed, "played": len(todo)})
    (Path(config.out) / "ladder.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


def rate(agents: list[str], results: list[dict[str, Any]]) -> dict[str, Any]:
    """Ratings and pairwise scores of two-player ``results`` (in the order they are rated),
    and each agent's time a move over the games that noted it (None where none did).

    >>> won = lambda a, b: {"seats": [a, b], "returns": [1.0, 0.0]}
    >>> ladder = rate(["random", "greedy"], [won("greedy", "random"), won("random", "greedy"), won("greedy", "random")])
    >>> [row["agent"] for row in ladder["ranking"]], ladder["pairs"][0]["score"]
    (['greedy', 'random'], 0.3333333333333333)
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in agents}
    points: dict[tuple[str, str], list[float]] = {pair: [0.0, 0] for pair in pairs(agents)}
    totals = {name: [0.0, 0] for name in agents}
    for result in results:
        (a, b), (ra, rb) = result["seats"], result["returns"]
        (new_a,), (new_b,) = model.rate([[ratings[a]], [ratings[b]]], ranks=[-ra, -rb])
        ratings[a], ratings[b] = new_a, new_b
        key, first = ((a, b), ra) if (a, b) in points else ((b, a), rb)
        points[key][0] += first
        points[key][1] += 1
        for name, won in ((a, ra), (b, rb)):
            totals[name][0] += won
            totals[name][1] += 1
    times = times_a_move(results)
    ranking = sorted(({"agent": name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(),
                       "games": totals[name][1],
                       "score": totals[name][0] / totals[name][1] if totals[name][1] else 0.0,
                       "seconds_a_move": times.get(name, (None, 0))[0]}
                      for name, r in ratings.items()), key=lambda row: -row["ordinal"])
    pair_rows = []
    for (a, b), (won, games) in points.items():
        low, high = wilson(won, games)
        pair_rows.append({"agents": [a, b], "games": games, "score": won / games if games else 0.0,
                          "score_95": [low, high]})
    return {"ranking": ranking, "pairs": pair_rows, "games": len(results)}
