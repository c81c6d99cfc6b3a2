"""The balance lab's own cost: the same games played bare, by the arena, by
``tileworks study run`` in local processes, and by the study on a local Ray
instance; and games per hour per core of each game's line-ups.

Usage:
    python bench/bench_study.py overhead [--game azul] [--agents greedy] [--games 600] [--workers 2] [--rounds 2]
    python bench/bench_study.py throughput RESULTS...   (folders of finished studies)

``overhead`` plays one cell of ``--games`` games four ways, alternated
``--rounds`` times, and prints each way's wall time and its overhead over
the bare pool (processes that only play the games: the least a run can
cost). ``throughput`` reads finished studies' results and prints games per
hour per core for each game, player count and line-up, from the time each
game took in its worker.

Prints figures; it asserts nothing. Record results in docs/performance.md
with the machine and the date.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import tileworks
from tileworks.arena import ArenaConfig
from tileworks.arena import run as run_arena
from tileworks.arena.playing import play_seeded
from tileworks.lab.run import run_study
from tileworks.lab.study import load_study_text


def _bare(job: tuple[str, list[str], int]) -> float:
    game, specs, seed = job
    played = play_seeded(tileworks.load_game(game), specs, seed)
    return played.state.returns()[0]


def overhead(args: argparse.Namespace) -> None:
    players = tileworks.load_game(args.game).num_players()
    specs = [args.agents] * players
    study = load_study_text(f'[study]\ngame = "{args.game}"\ngames = {args.games}\nseed = 1\n'
                            f'[[lineups]]\nagents = ["{args.agents}"]\n')
    cell = study.cells()[0]
    jobs = [(args.game, specs, study.game_seed(cell, i)) for i in range(args.games)]
    work = Path(tempfile.mkdtemp(prefix="bench-study-"))
    times: dict[str, list[float]] = {"bare pool": [], "arena": [], "study": [], "study on Ray": []}
    try:
        import ray

        ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    except ImportError:
        ray = None
        del times["study on Ray"]
    for round_ in range(args.rounds):
        for way in times:
            folder = work / f"{way}-{round_}".replace(" ", "-")
            started = time.perf_counter()
            if way == "bare pool":
                with ProcessPoolExecutor(args.workers) as pool:
                    list(pool.map(_bare, jobs, chunksize=8))
            elif way == "arena":
                run_arena(ArenaConfig(game=args.game, agents=specs, games=args.games, out=folder, seed=1,
                                      workers=args.workers))
            elif way == "study":
                run_study(study, folder, workers=args.workers)
            else:
                run_study(study, folder, ray="auto")
            times[way].append(time.perf_counter() - started)
            print(f"round {round_ + 1}: {way:13} {times[way][-1]:7.2f} s", flush=True)
    if ray is not None:
        ray.shutdown()
    shutil.rmtree(work)
    bare = statistics.fmean(times["bare pool"])
    print(f"\n{args.games} games of {args.game} ({', '.join(specs)}), {args.workers} workers, "
          f"mean of {args.rounds} rounds:")
    for way, seconds in times.items():
        mean = statistics.fmean(seconds)
        print(f"  {way:13} {mean:7.2f} s  {args.games / mean:7.1f} games/s  overhead {100 * (mean - bare) / mean:+5.1f}%")


def throughput(args: argparse.Namespace) -> None:
    import duckdb

    print(f"{'study':28} {'players':>7} {'line-up':24} {'games':>6} {'s/game':>8} {'games/h/core':>13}")
    for folder in args.results:
        with duckdb.connect(str(Path(folder) / "results.duckdb"), read_only=True) as db:
            for players, lineup, games, seconds in db.execute(
                    "SELECT players, lineup, count(*), avg(seconds) FROM games "
                    "GROUP BY players, lineup ORDER BY lineup, players").fetchall():
                print(f"{Path(folder).name:28} {players:>7} {lineup:24} {games:>6} {seconds:8.3f} "
                      f"{3600 / seconds:13,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    cost = commands.add_parser("overhead")
    cost.add_argument("--game", default="azul")
    cost.add_argument("--agents", default="greedy")
    cost.add_argument("--games", type=int, default=600)
    cost.add_argument("--workers", type=int, default=2)
    cost.add_argument("--rounds", type=int, default=2)
    rates = commands.add_parser("throughput")
    rates.add_argument("results", nargs="+")
    args = parser.parse_args()
    overhead(args) if args.command == "overhead" else throughput(args)


if __name__ == "__main__":
    main()
