"""KILN: how a learned agent sells, against greedy. At each of its sale
decisions (a sale or ``pass`` on offer), what it chose and what greedy would
choose in its place; and how many sales each side is offered and makes.
Then, on the positions of games between two greedy agents, how often the
shipped network's likeliest choice at a sale decision is to pass.

Usage:
  python bench/bench_kiln_sales.py [--agent net] [--games 10] [--greedy-games 8]

The agent sits in seat 1 and seat 2 in turn. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import random

import numpy as np

import tileworks
from tileworks.agents import make
from tileworks.agents.learned import shipped_network
from tileworks.core import sample_chance


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="net")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--greedy-games", type=int, default=8)
    args = parser.parse_args()
    game = tileworks.load_game("kiln")
    against_greedy(game, args.agent, args.games)
    on_greedy_positions(game, args.greedy_games)


def sale_on_offer(state) -> bool:
    legal = state.legal_actions()
    return len(legal) > 1 and "pass" in (state.action_to_string(a) for a in legal)


def sale_decisions(state, agents, seed: int):
    """Play ``state`` out (chance seeded with ``seed``), yielding each sale
    decision before it is made: the mover and the action its agent chose."""
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        mover = state.current_player()
        action = agents[mover].step(state)
        if sale_on_offer(state):
            yield mover, action
        state.apply_action(action)


def against_greedy(game, agent: str, games: int) -> None:
    counts: collections.Counter[str] = collections.Counter()
    advice: collections.Counter[tuple[str, str]] = collections.Counter()
    for number in range(games):
        seat = number % 2
        agents = {seat: make(agent, seed=number), 1 - seat: make("greedy", seed=number, reproducible=True)}
        adviser = make("greedy", seed=99, reproducible=True)
        state = game.new_initial_state()
        for mover, action in sale_decisions(state, agents, number):
            side = "agent" if mover == seat else "greedy"
            sold = state.action_to_string(action) != "pass"
            counts[f"{side} offered"] += 1
            counts[f"{side} sold"] += sold
            if side == "agent":
                would = state.action_to_string(adviser.step(state.clone())) != "pass"
                advice[("sells" if sold else "passes", "sells" if would else "passes")] += 1
        scores = state.scores()
        counts["agent points"] += scores[seat]
        counts["greedy points"] += scores[1 - seat]
    print(f"{games} games, {agent} against greedy")
    for side in ("agent", "greedy"):
        print(f"  {side}: offered a sale {counts[side + ' offered']} times, sold {counts[side + ' sold']}, "
              f"{counts[side + ' points'] / games:.1f} points a game")
    print(f"  at {agent}'s sale decisions, what it did and what greedy would have done:")
    for (did, would), times in sorted(advice.items()):
        print(f"    {agent} {did}, greedy {would}: {times}")


def on_greedy_positions(game, games: int) -> None:
    network = shipped_network(game)
    decisions = greedy_passes = network_passes = 0
    for number in range(games):
        agents = [make("greedy", seed=number * 10 + seat, reproducible=True) for seat in range(2)]
        state = game.new_initial_state()
        for mover, action in sale_decisions(state, agents, number):
            legal = state.legal_actions()
            logits, _value = network.evaluate(np.asarray(state.observation_tensor(mover), np.float32))
            likeliest = legal[int(np.argmax(np.asarray(logits)[legal]))]
            decisions += 1
            greedy_passes += state.action_to_string(action) == "pass"
            network_passes += state.action_to_string(likeliest) == "pass"
    print(f"{games} games between two greedy agents: {decisions} sale decisions; greedy passed at "
          f"{greedy_passes}, the shipped network's likeliest choice was to pass at {network_passes}")


if __name__ == "__main__":
    main()
