"""Self-play with Gumbel search on a batched engine, and the training step.

Everything here is a pure function of arrays, compiled once per game and
option set: :func:`make_functions` closes over the environment and the
settings and returns ``play`` (a batch of games each advanced ``steps``
decisions, every decision chosen by a Gumbel search of ``simulations``
network-guided simulations, finished games restarted at once) and
``learn`` (one optimiser step on a minibatch of positions).

Values are for two seats: a position's value is its mover's expected
result, from a loss (-1) through a shared win (0) to a win (1), so a value
passes to the parent node negated when the seat to move changes and as it
is when the same seat moves again (an extra turn, a turn of several
decisions).
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
    result: Any  # the mover's result where the decision ended the game, else 0
    ended: Any  # the decision ended the game
    next_mover: Any  # the seat to move after it (a new game's, where one began)


def result_of(rewards: Any, seat: Any) -> Any:
    """A seat's result in [-1, 1] from the engine's returns (1 win, 0.5 shared, 0 loss)."""
    return 2.0 * jnp.take_along_axis(rewards, seat[:, None], axis=1)[:, 0] - 1.0


def make_functions(env: Any, simulations: int, considered: int, optimiser: Any, value_weight: float) -> Any:
    """``(play, learn, value_targets)`` for ``env``, compiled on first call."""

    def evaluate(params: Any, state: Any) -> tuple[Any, Any]:
        logits, value = forward(params, state.observation, jnp)
        return masked(logits, state.legal_action_mask, jnp), value

    def recurrent(params: Any, key: Any, action: Any, state: Any) -> tuple[Any, Any]:
        mover = state.current_player
        following = jax.vmap(env.step)(state, action, jax.random.split(key, action.shape[0]))
        logits, value = evaluate(params, following)
        over = following.terminated
        same = following.current_player == mover
        output = mctx.RecurrentFnOutput(
            reward=jnp.where(over & ~state.terminated, result_of(following.rewards, mover), 0.0),
            discount=jnp.where(over, 0.0, jnp.where(same, 1.0, -1.0)),
            prior_logits=logits,
            value=jnp.where(over, 0.0, value),
        )
        return output, following

    def decide(params: Any, state: Any, key: Any) -> Any:
        logits, value = evaluate(params, state)
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
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
                                state.current_player, jnp.where(ended, result_of(following.rewards, state.current_player), 0.0),
                                ended, jnp.where(ended, restarted.current_player, following.current_player))
            following = jax.tree.map(lambda new, old: jnp.where(ended.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
                                     restarted, following)
            return following, record

        return jax.lax.scan(one, state, jax.random.split(key, steps))

    def value_targets(params: Any, trajectory: Trajectory, final: Any) -> Any:
        """Each decision's value target, from its mover's side: the game's
        result where it ended in view, else the network's value of the
        last position reached, passed back through the seats' turns."""
        _, tail = evaluate(params, final)

        def back(later: Any, step: Trajectory) -> tuple[Any, Any]:
            value = jnp.where(step.ended, step.result, jnp.where(step.next_mover == step.mover, later, -later))
            return value, value

        _, targets = jax.lax.scan(back, tail, trajectory, reverse=True)
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
