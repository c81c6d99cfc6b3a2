"""Agents: the spec grammar, the greedy agent's strength, and that no agent cheats."""

from __future__ import annotations

import random

import pytest

import tileworks
from tileworks.agents import make, split_specs
from tileworks.core import sample_chance
from tileworks.core.errors import IllegalActionError


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
        ("genius", r"unknown agent 'genius'.*valid specs: alpha, greedy, mcts, net, random"),
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


# -- MCTS ------------------------------------------------------------------------------------
@pytest.mark.parametrize("spec, expected", [
    ("mcts:hard", {"iterations": 3000, "seconds": 3.0, "depth": None}),
    ("mcts:beginner", {"iterations": 20, "seconds": 0.5, "depth": 8}),
    ("mcts:iterations=2000,c=1.2", {"iterations": 2000, "c": 1.2, "seconds": None, "depth": None}),
    ("mcts:hard,depth=3", {"iterations": 3000, "depth": 3}),
    ("mcts:seconds=0.5", {"iterations": None, "seconds": 0.5}),
    ("mcts", {"iterations": 600, "seconds": 0.9, "level": "medium"}),
])
def test_mcts_specs(spec, expected):
    agent = make(spec)
    for key, value in expected.items():
        assert getattr(agent, key) == value


def test_a_seat_list_keeps_each_specs_parameters_together():
    assert split_specs("mcts:iterations=2000,c=1.2, greedy,mcts:hard") == [
        "mcts:iterations=2000,c=1.2", "greedy", "mcts:hard"]


@pytest.mark.parametrize("name, depth, scale, c", [
    ("kiln", 0, 1.0, 0.25), ("azul", 0, 4.0, 1.4), ("tiles", 2, 4.0, 1.4), ("tuileries", 2, 4.0, 1.4)])
def test_search_settings_come_from_the_game(name, depth, scale, c):
    """KILN's and Azul's leaves are evaluated as they stand (their
    evaluations read a half-played turn); Tiles plays two random decisions
    first, the default. KILN reads a lead of one point as a clear edge and
    explores little; the others keep the defaults."""
    state = tileworks.load_game(name).new_initial_state()
    assert (state.rollout_depth(), state.value_scale(), state.exploration()) == (depth, scale, c)


def root_visits(spec, state):
    agent = make(spec, seed=4)
    agent.step(state)
    _, _, root = agent._kept
    return sorted((child.visits for child in root.children.values()), reverse=True)


def test_search_explores_as_the_game_asks_unless_the_spec_says():
    state = tileworks.load_game("kiln").new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    by_game = root_visits("mcts:iterations=300", state)
    assert by_game == root_visits("mcts:iterations=300,c=0.25", state)
    # the default constant spreads the same budget more evenly over the pushes
    assert max(root_visits("mcts:iterations=300,c=1.4", state)) < max(by_game)


@pytest.mark.parametrize("spec, message", [
    ("mcts:godlike", r"mcts takes c, depth, iterations, seconds, a level \(beginner, easy, medium, hard, expert\)"),
    ("mcts:iterations=many", r"bad value 'many' for iterations"),
])
def test_bad_mcts_specs(spec, message):
    with pytest.raises(ValueError, match=message):
        make(spec)


@pytest.mark.parametrize("name, options", [("kiln", {"goal": 8}), ("azul", {})])
def test_mcts_beats_random(name, options):
    games, wins = 6, 0.0
    for g in range(games):
        mcts, rand = make("mcts:iterations=200", seed=g), make("random", seed=g)
        seats = [mcts, rand] if g % 2 == 0 else [rand, mcts]
        wins += play_match(name, seats, seed=200 + g, **options)[g % 2]
    assert wins >= 5, f"mcts won {wins} of {games} {name} games against random"


@pytest.mark.parametrize("name", ["tiles", "tuileries"])
def test_mcts_never_cheats(name):
    game = tileworks.load_game(name, players=3)
    rng = random.Random(4)
    state = game.new_initial_state()
    checked = 0
    while checked < 4:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_player()
        other = state.resample_hidden(seat, random.Random(checked))
        spec = "mcts:iterations=15,depth=4"
        assert make(spec, seed=checked).step(state) == make(spec, seed=checked).step(other)
        state.apply_action(rng.choice(state.legal_actions()))
        checked += 1


def test_mcts_keeps_its_tree_through_a_multi_decision_turn():
    # KILN: a push is followed by the same player's placement choice
    game = tileworks.load_game("kiln")
    rng = random.Random(1)
    agent = make("mcts:iterations=200", seed=1)
    state = game.new_initial_state()
    while True:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        mover = state.current_player()
        action = agent.step(state)
        state.apply_action(action)
        if not state.is_chance_node() and state.current_player() == mover and len(state.legal_actions()) > 1:
            kept = agent._reused_root(state)
            assert kept is not None and kept.visits > 0
            break


@pytest.mark.parametrize("name", ["tiles", "tuileries", "azul", "kiln"])
def test_the_one_move_look_ahead_refuses_a_move_not_legal_here(name):
    """Greedy and the searches rate moves one ahead with ``evaluate_after``,
    which plays each without checking it again. An action past every action
    of the game, asked beside a legal move, is refused with its number
    named, and the position is as it was. Tuileries rates its moves without
    playing them, and is checked the same."""
    game = tileworks.load_game(name)
    state, rng = game.new_initial_state(), random.Random(5)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else state.legal_actions()[0])
    legal, mover = state.legal_actions(), state.current_player()
    before = state.to_json()
    assert len(state.evaluate_after(legal, mover)) == len(legal)
    beyond = game.num_distinct_actions()
    with pytest.raises(IllegalActionError, match=str(beyond)):
        state.evaluate_after([legal[0], beyond], mover)
    assert state.to_json() == before and state.legal_actions() == legal
