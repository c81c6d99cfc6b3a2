"""Chance in the JAX engines draws with the Python engines' probabilities.

The cross-checks replay JAX's draws in the Python engine, so they prove the
rules the same, not the odds: a deal that always came out in one order
would pass them. These tests draw many times from many keys and compare
the frequencies with the probabilities (each within five standard errors),
and check the bit masks the legal actions are built from against plain
Python."""

from __future__ import annotations

import random

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from tileworks.jax.core import Chance, bits_of, pack_mask, running_total, unpack_mask

DRAWS = 20_000


def _keys(seed: int) -> jax.Array:
    return jax.random.split(jax.random.PRNGKey(seed), DRAWS)


def _assert_frequencies(outcomes: np.ndarray, probabilities: list[float]) -> None:
    counts = np.bincount(outcomes, minlength=len(probabilities))
    assert counts.size == len(probabilities), f"an outcome out of range: {sorted(set(outcomes.tolist()))}"
    for outcome, (count, p) in enumerate(zip(counts, probabilities)):
        error = 5 * np.sqrt(p * (1 - p) / DRAWS)
        assert abs(count / DRAWS - p) <= error, f"outcome {outcome}: {count / DRAWS:.4f}, expected {p:.4f}"


def test_a_weighted_draw_follows_the_weights_and_never_takes_an_empty_colour():
    # a bag holding 3 blue, no yellow, 1 red and 4 black tiles
    weights = jnp.asarray([3, 0, 1, 4])
    draw = jax.jit(jax.vmap(lambda key: Chance.sampled(key, 3).weighted(2, weights)))
    _assert_frequencies(np.asarray(draw(_keys(1))), [3 / 8, 0.0, 1 / 8, 4 / 8])


def test_a_weighted_draw_from_separate_numbers_matches_the_array_form():
    weights = jnp.asarray([2, 5, 0, 1, 7])
    both = jax.jit(jax.vmap(lambda key: (
        Chance.sampled(key, 1).weighted(0, weights),
        Chance.sampled(key, 1).weighted(0, tuple(weights[i] for i in range(5))))))
    array_form, numbers_form = both(_keys(2))
    assert (np.asarray(array_form) == np.asarray(numbers_form)).all()


def test_an_index_is_uniform_over_its_range():
    draw = jax.jit(jax.vmap(lambda key: Chance.sampled(key, 1).index(0, 6)))
    _assert_frequencies(np.asarray(draw(_keys(3))), [1 / 6] * 6)


def test_a_shuffle_deals_each_item_once_and_every_item_equally_often_to_each_place():
    items = jnp.arange(10) * 3  # ten distinct tiles
    deal = jax.jit(jax.vmap(lambda key: Chance.sampled(key, 1).shuffled(1, items, 10)))
    orders = np.asarray(deal(_keys(4)))
    assert (np.sort(orders, axis=1) == np.asarray(items)).all(), "a shuffle lost or repeated a tile"
    for place in (0, 4, 9):
        _assert_frequencies(orders[:, place] // 3, [1 / 10] * 10)


def test_a_partial_shuffle_is_the_start_of_a_random_order():
    # Tuileries deals 14 of its 64 tiles: the first places of a random order of all 64
    deal = jax.jit(jax.vmap(lambda key: Chance.sampled(key, 1).shuffled(1, jnp.arange(64), 14)))
    hands = np.asarray(deal(_keys(5)))
    assert hands.shape == (DRAWS, 14)
    assert all(len(set(hand)) == 14 for hand in hands[:500].tolist())
    _assert_frequencies(hands[:, 13] // 8, [1 / 8] * 8)  # the last tile dealt, by eighth of the set


def test_imposed_outcomes_are_taken_as_given_and_a_window_renumbers_them():
    chance = Chance(outcomes=jnp.asarray([2, 0, 3, 1]))
    assert int(chance.index(0, 5)) == 2
    assert int(chance.weighted(2, jnp.asarray([1, 1, 1, 1]))) == 3
    assert int(chance.window(1, 3).index(2, 5)) == 1


def test_running_totals_match_a_cumulative_sum():
    values = np.random.default_rng(6).integers(0, 9, size=(3, 77))
    for width in (1, 5, 16, 17, 77):
        assert (np.asarray(running_total(jnp.asarray(values[:, :width]))) == np.cumsum(values[:, :width], axis=1)).all()


@pytest.mark.parametrize("size", [1, 31, 32, 33, 185, 4096])
def test_masks_packed_as_words_unpack_to_the_same_booleans(size):
    rng = random.Random(size)
    flags = [rng.random() < 0.3 for _ in range(size)]
    fields, offset = [], 0
    while offset < size:  # fields of random widths, some straddling two words
        width = min(rng.randint(1, 32), size - offset)
        fields.append((offset, bits_of(jnp.asarray(flags[offset:offset + width])), width))
        offset += width
    assert np.asarray(unpack_mask(pack_mask(fields, size), size)).tolist() == flags
