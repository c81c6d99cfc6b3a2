"""Tuileries' JAX engine on positions a player would recognise: an extra
turn (with and without the bonus tile) and what a seat may see."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import tileworks
import tileworks.jax
from tileworks.games.tuileries.constants import SQUARE_INDEX, tile_of
from tileworks.games.tuileries.notation import position

#: the circles are covered; blue kings of hearts and diamonds on a1 and b1,
#: the yellow king of spades on c2
BOARD = {"c3": "rqh", "f3": "gnd", "c6": "yjc", "f6": "rjh", "a1": "bkh", "b1": "bkd", "c2": "yks"}
HANDS = [["bks", "bqs", "bqh", "bnd", "bjc", "yqs", "yqh", "ynd", "rks", "rqs"],
         ["gks", "gqs", "gqh", "gnh", "gjc", "ykh", "yqd", "rnd", "rjc", "bjd"]]


@functools.lru_cache(maxsize=None)
def _environment(bonus_tile: bool):
    """The environment and its jitted step with imposed chance, compiled once per option."""
    env = tileworks.jax.make("tuileries", bonus_tile=bonus_tile)
    return env, jax.jit(env.step_with_chance)


def _play(bonus_tile: bool):
    env, step_with_chance = _environment(bonus_tile)
    python = position(tileworks.load_game("tuileries", bonus_tile=bonus_tile), board=BOARD, hands=HANDS)
    state = env.from_python(python)
    action = 64 * tile_of("bks") + SQUARE_INDEX["c1"]
    draws = [tile_of("gjh"), tile_of("bkc")]  # the replacement, then (maybe) the bonus tile
    after = step_with_chance(state, jnp.int32(action), jnp.asarray(draws[: env.max_chance]))
    python.apply_action(action)
    for tile in draws:
        if python.is_chance_node():
            python.apply_action(tile)
    return env, after, python


@pytest.mark.parametrize("bonus_tile", [False, True])
def test_five_points_earn_another_turn_which_the_bonus_tile_variant_starts_with_an_extra_tile(bonus_tile):
    # the blue king of spades on c1 makes the blue kings a1-c1 (3) and the kings of spades c1-c2 (2)
    env, after, python = _play(bonus_tile)
    assert np.asarray(after._points).tolist() == [5, 0] == python.scores()
    assert int(after.current_player) == 0 == python.current_player()  # the same seat plays again
    held = int(after._hands[0].sum())
    assert held == (11 if bonus_tile else 10) == len(python.hands[0])  # 10 - 1 played + 1 drawn (+ 1 bonus)
    assert bool(after._hands[0, tile_of("gjh")]) and bool(after._hands[0, tile_of("bkc")]) == bonus_tile
    assert np.flatnonzero(np.asarray(after.legal_action_mask)).tolist() == sorted(python.legal_actions())


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    env, after, python = _play(bonus_tile=False)
    observe = jax.jit(env.observe)
    mine = np.asarray(observe(after))
    hand = mine[768 + 64: 768 + 128]
    assert np.flatnonzero(hand).tolist() == sorted(np.flatnonzero(np.asarray(after._hands[0])).tolist())
    # seat 2 swaps a tile of its hand with one of the draw: seat 1 sees no difference, seat 2 does
    held, waiting = tile_of("gks"), int(np.flatnonzero(np.asarray(after._pile))[0])
    swapped = after.replace(_hands=after._hands.at[1, held].set(False).at[1, waiting].set(True),
                            _pile=after._pile.at[held].set(True).at[waiting].set(False))
    assert np.array_equal(np.asarray(observe(swapped)), mine)
    theirs = lambda s: np.asarray(observe(s.replace(current_player=jnp.int32(1))))  # noqa: E731
    assert not np.array_equal(theirs(swapped), theirs(after))
    assert np.allclose(mine, python.observation_tensor(0), atol=1e-6)
