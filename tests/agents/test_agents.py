"""Agents: the spec grammar, the greedy agent's strength, and that no agent cheats."""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks.agents import make
from tileworks.core import sample_chance


def play_match(name, agents, seed, **options):
    game = tileworks.load_game(name, **options)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for agent in agents:
        agent.restart()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(agents[state.current_player()].step(state))
    return state.returns()


@pytest.mark.parametrize("spec", ["random", "greedy", " Greedy ", "random:"])
def test_specs_build_agents(spec):
    assert make(spec, seed=1).step is not None


@pytest.mark.parametrize(
    "spec, message",
    [
        ("genius", r"unknown agent 'genius'.*valid specs: greedy, random"),
        ("", r"empty agent spec"),
        ("greedy:depth=3", r"bad parameter 'depth=3'.*greedy takes no parameters"),
        ("random:fast", r"bad parameter 'fast'"),
    ],
)
def test_bad_specs_list_what_is_valid(spec, message):
    with pytest.raises(ValueError, match=message):
        make(spec)


def test_a_seeded_agent_repeats_its_choices_after_restart():
    game = tileworks.load_game("azul")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    agent = make("random", seed=5)
    first = [agent.step(state) for _ in range(5)]
    agent.restart()
    assert [agent.step(state) for _ in range(5)] == first


@pytest.mark.parametrize("name, options, games", [
    ("kiln", {"goal": 8}, 12),
    ("azul", {}, 12),
    ("tiles", {}, 12),
    ("tuileries", {}, 12),
])
def test_greedy_beats_random(name, options, games):
    """Seats alternate; greedy must win clearly more than half of the games."""
    wins = 0.0
    for g in range(games):
        greedy, rand = make("greedy", seed=g), make("random", seed=g)
        seats = [greedy, rand] if g % 2 == 0 else [rand, greedy]
        returns = play_match(name, seats, seed=100 + g, **options)
        wins += returns[g % 2]
    assert wins >= 0.7 * games, f"greedy won {wins} of {games} {name} games against random"


@pytest.mark.parametrize("name", ["tiles", "tuileries"])
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_agents_never_cheat(name, spec):
    """Same seed, two states that differ only in other seats' hands: same choice."""
    game = tileworks.load_game(name, players=3)
    rng = random.Random(11)
    checked = 0
    state = game.new_initial_state()
    while not state.is_terminal() and checked < 15:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        other = state.resample_hidden(seat, random.Random(checked))
        assert other.to_json()["state"]["hands"][seat] == state.to_json()["state"]["hands"][seat]
        assert make(spec, seed=checked).step(state) == make(spec, seed=checked).step(other)
        state.apply_action(rng.choice(state.legal_actions()))
        checked += 1
    assert checked == 15
