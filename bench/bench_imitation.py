"""Can a network of the kind ``tileworks train`` makes learn to choose as
an agent does? A diagnostic of the architecture, apart from self-play:
play ``--games`` seeded games between copies of ``--teacher`` (greedy by
default) and fit a new network to its choices and the games' results, as
``tileworks train --imitate`` starts a run (``--epochs`` passes of the
training loop's own loss and optimiser), then measure

- its **agreement**: on the decisions of 30 fresh games between teachers,
  how often the network's likeliest legal action is one the game's
  evaluation rates best (``State.evaluate_after``: greedy's own choice,
  ties included), in all and phase by phase where the game's record of a
  position names its phase (KILN: push, group, place, sale);
- its score as ``net`` against random and against the teacher (100 games each, seats alternating).

Usage:
  python bench/bench_imitation.py GAME [-o option=value ...] [--games 1000] [--epochs 12] [--teacher greedy]
      [--network board|flat] [--hidden N] [--blocks N] [--save PATH]

A network that cannot learn one decision of look-ahead from a thousand
games of it will not learn it from self-play either. Prints figures;
asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time

import numpy as np

import tileworks
from tileworks.cli.main import parse_options
from tileworks.learn.evaluate import evaluate_against
from tileworks.learn.imitate import teacher_games


def fresh_decisions(game, teacher: str, games: int = 30) -> tuple[list, list[np.ndarray], list[np.ndarray]]:
    """The decisions with a choice in ``games`` fresh games between copies of
    ``teacher`` (seeded apart from any imitation's): each state, its legal
    action ids, and which of them the game's evaluation rates best."""
    states, legal_ids, best = [], [], []
    for seen, _ in teacher_games(game, teacher, games, first_seed=1_000_000):
        for state, _action in seen:
            legal = state.legal_actions()
            if len(legal) < 2:
                continue
            values = np.asarray(state.evaluate_after(legal, state.current_player()))
            states.append(state)
            legal_ids.append(np.asarray(legal))
            best.append(values >= values.max() - 1e-9)
    return states, legal_ids, best


def agreement(game, network, teacher: str, games: int = 30) -> dict[str, tuple[int, int]]:
    """Of the teacher's decisions with a choice (in fresh games), how many
    there are and at how many the network's likeliest legal action is one
    the game's evaluation rates best: ``"all"`` of them, and each phase's."""
    states, legal_ids, best = fresh_decisions(game, teacher, games)
    counts: dict[str, tuple[int, int]] = {}
    for state, legal, rated in zip(states, legal_ids, best):
        agrees = bool(rated[int(np.argmax(network.evaluate(state.observation_tensor(state.current_player()))[0][legal]))])
        for kind in ("all", state.to_json()["state"].get("phase")):
            if kind is not None:
                total, agreed = counts.get(kind, (0, 0))
                counts[kind] = (total + 1, agreed + agrees)
    return counts


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("-o", "--option", action="append", default=[])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--teacher", default="greedy")
    parser.add_argument("--network", choices=("board", "flat"))
    parser.add_argument("--hidden", type=int)
    parser.add_argument("--blocks", type=int, default=2)
    parser.add_argument("--save", help="write the fitted network here (.npz)")
    args = parser.parse_args(argv)

    from tileworks.learn.train import TrainConfig, Trainer

    options = parse_options(args.game, args.option)
    game = tileworks.load_game(args.game, **options)
    config = TrainConfig(args.game, options, network=args.network, hidden=args.hidden, blocks=args.blocks,
                         imitate=args.teacher, imitate_games=args.games, imitate_epochs=args.epochs, eval_games=0)
    trainer = Trainer(config, tempfile.mkdtemp(prefix="imitation-"))
    started = time.perf_counter()
    fitted = trainer.imitate()
    print(f"{args.game}, {config.network} network: {fitted['decisions']:,} decisions of {args.games} games between "
          f"{args.teacher}s, {args.epochs} passes: {time.perf_counter() - started:.0f} s; last pass's losses: policy "
          f"{fitted['policy_loss']:.3f}, value {fitted['value_loss']:.3f}", flush=True)
    network = trainer.network()
    if args.save:
        network.save(args.save)
    counts = agreement(game, network, args.teacher)
    total, agree = counts.pop("all")
    print(f"  agreement with the evaluation's best: {agree} of {total} decisions ({agree / total:.1%})")
    for phase, (total, agree) in counts.items():
        print(f"    {phase}: {agree} of {total} ({agree / total:.1%})")
    for opponent in ("random", args.teacher):
        result = evaluate_against(game, network, opponent, games=100, seed=1)
        print(f"  net against {opponent}: {result.score:.3f} ({result.low:.2f}-{result.high:.2f}), 100 games")


if __name__ == "__main__":
    main(sys.argv[1:])
