"""Self-play with Gumbel search on a batched engine, and the training step.

Everything here is a pure function of arrays, compiled once per game and
option set: :func:`make_functions` closes over the environment and the
settings and returns ``play`` (a batch of games each advanced ``steps``
decisions, every decision chosen by a Gumbel search of ``simulations``
network-guided simulations, finished games restarted at once) and
``learn`` (one optimiser step on a minibatch of positions).

A seat's result runs from a loss (-1) through a shared win (0 for two
seats) to a win (1). The network gives the mover's value (two seats: the
other's is its negation) or every seat's, counted from the mover (three or
more: see :mod:`tileworks.agents.network`). ``mctx`` keeps one number a
node, so the search is **paranoid** (Sturtevant and Korf, 2000): every
node holds the value of the seat that searches (the root's mover) for its
own mover's side, the other seats counted as one side against it; a value
passes to the parent negated where the side to move changes, and as it is
where the same side moves again (an extra turn, a turn of several
decisions). With two seats this is the usual zero-sum search. The value
targets keep every seat's own result, so the network learns each seat's
chances, which the ``alpha`` agent's max-n search then uses.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import mctx
import optax

from tileworks.agents.network import forward, masked


class Trajectory(NamedTuple):
    """What ``play`` saw at each decision of each game: ``[steps, games, ...]``."""

    observation: Any  # the mover's observation
    legal: Any  # its legal actions
    policy: Any  # the search's improved policy (the policy target)
    mover: Any
    results: Any  # every seat's result ``[seats]`` where the decision ended the game, else 0
    ended: Any  # the decision ended the game


def results_of(rewards: Any) -> Any:
    """Each seat's result in [-1, 1] from the engine's returns (1 win, 1/k shared, 0 loss)."""
    return 2.0 * rewards - 1.0


def pick(values: Any, seat: Any) -> Any:
    """``values[i, seat[i]]`` for each game ``i``."""
    return jnp.take_along_axis(values, seat[:, None], axis=1)[:, 0]


def make_functions(env: Any, simulations: int, considered: int, optimiser: Any, value_weight: float) -> Any:
    """``(play, learn, value_targets)`` for ``env``, compiled on first call."""
    seats = env.num_players
    ring = jnp.arange(seats)

    def evaluate(params: Any, state: Any) -> tuple[Any, Any]:
        logits, value = forward(params, state.observation, jnp)
        return masked(logits, state.legal_action_mask, jnp), value

    def by_seat(value: Any, mover: Any) -> Any:
        """Every seat's value ``[games, seats]``, by seat number, from the network's for ``mover``."""
        if seats == 2:
            return jnp.where(ring[None, :] == mover[:, None], value[:, None], -value[:, None])
        return jnp.take_along_axis(value, (ring[None, :] - mover[:, None]) % seats, axis=1)

    def from_mover(values: Any, mover: Any) -> Any:
        """The network's shape of every seat's values: the mover's alone (two seats), or counted from it."""
        if seats == 2:
            return pick(values, mover)
        return jnp.take_along_axis(values, (ring[None, :] + mover[:, None]) % seats, axis=1)

    def side(seat: Any, root: Any) -> Any:
        """+1 for the searching seat, -1 for the others (the paranoid search's two sides)."""
        return jnp.where(seat == root, 1.0, -1.0)

    def recurrent(params: Any, key: Any, action: Any, embedding: Any) -> tuple[Any, Any]:
        state, root = embedding
        mover = state.current_player
        following = jax.vmap(env.step)(state, action, jax.random.split(key, action.shape[0]))
        logits, value = evaluate(params, following)
        over = following.terminated
        after = following.current_player
        output = mctx.RecurrentFnOutput(
            reward=jnp.where(over & ~state.terminated, side(mover, root) * pick(results_of(following.rewards), root), 0.0),
            discount=jnp.where(over, 0.0, side(mover, root) * side(after, root)),
            prior_logits=logits,
            value=jnp.where(over, 0.0, side(after, root) * pick(by_seat(value, after), root)),
        )
        return output, (following, root)

    def decide(params: Any, state: Any, key: Any) -> Any:
        logits, value = evaluate(params, state)
        mover = state.current_player
        root = mctx.RootFnOutput(prior_logits=logits, value=pick(by_seat(value, mover), mover),
                                 embedding=(state, mover))
        return mctx.gumbel_muzero_policy(params, key, root, recurrent, num_simulations=simulations,
                                         invalid_actions=~state.legal_action_mask,
                                         max_num_considered_actions=considered)

    def play(params: Any, state: Any, key: Any, steps: int) -> tuple[Any, Trajectory]:
        games = state.current_player.shape[0]

        def one(carry: Any, key: Any) -> tuple[Any, Trajectory]:
            state = carry
            search, chance, fresh = jax.random.split(key, 3)
            decided = decide(params, state, search)
            following = jax.vmap(env.step)(state, decided.action, jax.random.split(chance, games))
            restarted = jax.vmap(env.init)(jax.random.split(fresh, games))
            ended = following.terminated
            record = Trajectory(state.observation, state.legal_action_mask, decided.action_weights,
                                state.current_player, jnp.where(ended[:, None], results_of(following.rewards), 0.0),
                                ended)
            following = jax.tree.map(lambda new, old: jnp.where(ended.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
                                     restarted, following)
            return following, record

        return jax.lax.scan(one, state, jax.random.split(key, steps))

    def value_targets(params: Any, trajectory: Trajectory, final: Any) -> Any:
        """Each decision's value target, in the network's shape for its
        mover: every seat's result where the game ended in view, else the
        network's values of the last position reached."""
        _, tail = evaluate(params, final)

        def back(later: Any, step: Trajectory) -> tuple[Any, Any]:
            values = jnp.where(step.ended[:, None], step.results, later)
            return values, from_mover(values, step.mover)

        _, targets = jax.lax.scan(back, by_seat(tail, final.current_player), trajectory, reverse=True)
        return targets

    def loss(params: Any, batch: Any) -> tuple[Any, Any]:
        observation, legal, policy, target = batch
        logits, value = forward(params, observation, jnp)
        logits = masked(logits, legal, jnp)
        policy_loss = optax.softmax_cross_entropy(logits, policy).mean()
        value_loss = ((value - target) ** 2).mean()
        return policy_loss + value_weight * value_loss, (policy_loss, value_loss)

    def learn(params: Any, opt_state: Any, batch: Any) -> tuple[Any, Any, Any]:
        (_, parts), grads = jax.value_and_grad(loss, has_aux=True)(params, batch)
        updates, opt_state = optimiser.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, parts

    return (jax.jit(play, static_argnames="steps"), jax.jit(learn), jax.jit(value_targets))
