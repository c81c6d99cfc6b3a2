"""Batched, functional engines in JAX for accelerators, speaking Pgx's API
(optional extra: ``pip install 'tileworks[jax]'``).

>>> import jax
>>> import tileworks.jax
>>> env = tileworks.jax.make("azul", players=3, variant="grey")
>>> state = jax.jit(env.init)(jax.random.PRNGKey(0))
>>> state.legal_action_mask.shape
(245,)

Each game's engine lives in the game's own package and is declared in its
registration (``GameInfo.batched``, an import path loaded only when asked
for), so any plugin can bring one; this package holds what they share
(:class:`TileworksEnv`, :class:`TileworksState`, :class:`Chance`, the
cross-check) and knows no game by name. Each engine is registered with Pgx
under ``tileworks-<game>`` (its default options), so
``pgx.make("tileworks-<game>")`` and ``pgx.api_test`` take it as one of
Pgx's own.
"""

from __future__ import annotations

import contextlib
import typing
from collections.abc import Iterator
from typing import Any

import pgx
import pgx._src.api_test
import pgx.core

from tileworks.core.registry import batched_engine, batched_games
from tileworks.jax.core import ENV_PREFIX, Chance, TileworksEnv, TileworksState


def make(game: str, **options: Any) -> TileworksEnv:
    """The environment of ``game`` (a registered game that declares a
    batched engine; ``tileworks-<game>`` too) with ``options`` (those of
    ``load_game``).

    >>> make("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: no JAX engine for 'chess' (no such game); the games with one: azul, ...
    """
    return batched_engine(game.removeprefix(ENV_PREFIX))(**options)


def environment_of(state: TileworksState) -> TileworksEnv:
    """An environment that can read ``state`` (its game, with the options its arrays' shapes tell)."""
    return make(state.env_id, **dict(state._options))


_pgx_make = pgx.core.make


def _make(env_id: str) -> Any:
    if isinstance(env_id, str) and env_id.startswith(ENV_PREFIX):
        return make(env_id)
    return _pgx_make(env_id)


def register_with_pgx() -> None:
    """Add ``tileworks-<game>`` to Pgx's environment ids for every game that
    declares a batched engine (a plugin installed later: call this again),
    so that ``pgx.make`` builds them and ``pgx.api_test`` accepts their states."""
    ids = tuple(ENV_PREFIX + name for name in batched_games())
    known = typing.get_args(pgx.core.EnvId)
    if not set(ids) <= set(known):
        extended = typing.Literal[tuple(known) + tuple(i for i in ids if i not in known)]  # type: ignore[valid-type]
        pgx.core.EnvId = extended
        pgx._src.api_test.EnvId = extended
        pgx.EnvId = extended
    pgx.core.make = _make
    pgx.make = _make


def _act_randomly_on_last_axis(rng: Any, legal_action_mask: Any) -> Any:
    import jax
    import jax.numpy as jnp

    return jax.random.categorical(rng, logits=jnp.log(legal_action_mask.astype(jnp.float32)), axis=-1)


@contextlib.contextmanager
def pgx_api_test_fixed() -> Iterator[None]:
    """Run ``pgx.api_test`` inside this with its one JAX 0.10 fault fixed.

    Pgx 2.6.0's ``api_test`` samples a single state's action along axis 1,
    which JAX 0.10.1 and later refuse for every environment, Pgx's own
    included (sotetsuk/pgx#1314); inside this block it samples along the
    last axis, as the fix does."""
    import jax

    saved = pgx._src.api_test.act_randomly
    pgx._src.api_test.act_randomly = jax.jit(_act_randomly_on_last_axis)
    try:
        yield
    finally:
        pgx._src.api_test.act_randomly = saved


register_with_pgx()

__all__ = ["Chance", "TileworksEnv", "TileworksState", "batched_games", "environment_of", "make", "pgx_api_test_fixed",
           "register_with_pgx"]
