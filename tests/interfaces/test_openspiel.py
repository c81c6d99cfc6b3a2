"""OpenSpiel: every game loads by name, passes OpenSpiel's own random
simulation test (with serialisation), and OpenSpiel's Python MCTSBot and
ISMCTSBot play whole games through the adapter."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from tileworks.core.registry import registered_games  # noqa: E402
from tileworks.interfaces import openspiel  # noqa: E402

openspiel.register()
GAMES = ["kiln", "azul", "tiles", "tuileries"]
HIDDEN = {"tiles", "tuileries"}
# one game string per game with options other than the defaults
WITH_OPTIONS = [
    "tileworks_kiln(variant=advanced,heat_tokens=5 14,erase_rule=True)",
    "tileworks_azul(players=3,variant=grey)",
    "tileworks_tiles(players=3)",
    "tileworks_tuileries(players=4,bonus_tile=True,circles=a1 h1 a8 h8)",
]


def test_register_twice_is_harmless_and_names_every_game():
    names = openspiel.register()
    assert names == sorted(f"tileworks_{info.name}" for info in registered_games())  # plugin games too
    assert {f"tileworks_{g}" for g in GAMES} <= set(names)
    assert set(openspiel.register()) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("name", GAMES)
def test_game_type_and_info(name):
    game = pyspiel.load_game(f"tileworks_{name}")
    kind = game.get_type()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    expected = "IMPERFECT_INFORMATION" if name in HIDDEN else "PERFECT_INFORMATION"
    assert kind.information == getattr(pyspiel.GameType.Information, expected)
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    tw = game.tileworks_game
    assert (game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()) == (
        tw.num_distinct_actions(), tw.max_chance_outcomes(), tw.max_game_length())
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    assert game.observation_tensor_shape() == tw.observation_tensor_shape()
    assert "players" in kind.parameter_specification


def test_parameters_become_options():
    game = pyspiel.load_game("tileworks_tuileries(players=4,circles=a1 h1 a8 h8)")
    assert game.num_players() == 4
    assert game.tileworks_game.options()["circles"] == ("a1", "h1", "a8", "h8")
    assert pyspiel.load_game("tileworks_kiln", {"heat_tokens": "5,14"}).tileworks_game.options()["heat_tokens"] == (5, 14)
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter"):
        pyspiel.load_game("tileworks_azul(colours=6)")
    with pytest.raises(ValueError, match="players"):
        pyspiel.load_game("tileworks_azul(players=9)")


@pytest.mark.parametrize("game_string", [f"tileworks_{g}" for g in GAMES] + WITH_OPTIONS)
def test_random_sim_test_with_serialization(game_string):
    game = pyspiel.load_game(game_string)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def play(state, rng, choose=None, stop=lambda state: False):
    """Play chance by its probabilities and decisions by ``choose`` (at
    random by default) until the game ends or ``stop(state)``."""
    choose = choose or (lambda state: int(rng.choice(state.legal_actions())))
    while not state.is_terminal() and not stop(state):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(choose(state))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_serialized_state_deserializes_to_the_same_position(name):
    game = pyspiel.load_game(f"tileworks_{name}")
    state = play(game.new_initial_state(), np.random.RandomState(3), stop=lambda s: len(s.history()) >= 60)
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert copy.tileworks_state == state.tileworks_state
    assert copy.history() == state.history()


def test_observations_and_information_states_come_from_the_seat_view():
    game = pyspiel.load_game("tileworks_tuileries")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    tw = state.tileworks_state
    assert state.observation_tensor(0) == pytest.approx(tw.observation_tensor(0))
    assert state.observation_string(1) == tw.observation_string(1)
    assert state.information_state_string(1) == tw.information_state_string(1)
    assert "?" in state.information_state_string(1)  # P1's draws are hidden from P2


def test_resample_from_infostate_keeps_what_the_player_knows():
    game = pyspiel.load_game("tileworks_tiles")
    state = play(game.new_initial_state(), np.random.RandomState(5),
                 stop=lambda s: not s.is_chance_node() and len(s.history()) >= 30)
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    deals = [state.resample_from_infostate(player, sampler) for _ in range(5)]
    for other in deals:
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
    assert any(o.tileworks_state != state.tileworks_state for o in deals)  # other hands were dealt anew


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_bots_play_whole_games(name):
    game = pyspiel.load_game(f"tileworks_{name}" + ("(goal=8)" if name == "kiln" else ""))
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=1.4, max_simulations=6, evaluator=evaluator, random_state=rng)]
    if name in HIDDEN:
        bots.append(ismcts.ISMCTSBot(game, evaluator, uct_c=1.4, max_simulations=6, random_state=rng))
    else:  # OpenSpiel's ISMCTS asserts imperfect information, so MCTS plays both seats
        bots.append(bots[0])
    state = play(game.new_initial_state(), rng, lambda s: bots[s.current_player()].step(s))
    assert state.is_terminal()
    assert sum(state.returns()) == pytest.approx(1.0)
    assert state.tileworks_state.is_terminal()


def test_ismcts_plays_tiles_games_with_forced_discards():
    """With mostly single-colour tiles, hands often hold nothing that fits:
    ISMCTS resamples after forced discards at every search, and every deal it
    gets replays legally to the state it stands for."""
    from tileworks.games.tiles import DISCARD_HEAVY

    game = pyspiel.load_game("tileworks_tiles", {"tile_set": DISCARD_HEAVY})
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=1.4, max_simulations=10, random_state=rng)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = 0

    def step(state):
        nonlocal checked
        if state.tileworks_state.evidence:  # a forced discard has happened
            player = state.current_player()
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.tileworks_state == other.tileworks_state.game().state_from_json(other.tileworks_state.to_json())
            checked += 1
        return bot.step(state)

    state = play(game.new_initial_state(), rng, step)
    assert state.is_terminal()
    assert state.tileworks_state.discards and checked > 0


def test_resample_from_infostate_of_a_position_without_a_history():
    from tileworks.games.tiles import position

    tw = position(pyspiel.load_game("tileworks_tiles").tileworks_game,
                  layout=[[0, 0, "wwww"], [0, -1, "wbww"]], hands=[["bbbb", "gggg"], ["gwgw", "ggww"]])
    state = openspiel.SpielState(pyspiel.load_game("tileworks_tiles"), tw)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.tileworks_state.history() == []
    assert other.tileworks_state.view(0) == tw.view(0)  # the layout and P1's hand, not an empty table
    assert other.legal_actions() == state.legal_actions()
