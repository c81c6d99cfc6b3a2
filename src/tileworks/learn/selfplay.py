"""Self-play with Gumbel search on a batched engine, and the training step.

Everything here is a pure function of arrays, compiled once per game and
option set: :func:`make_functions` closes over the environment and the
settings and returns ``play`` (a batch of games each advanced ``steps``
decisions, every decision chosen by a Gumbel search of ``simulations``
network-guided simulations, finished games restarted at once) and
``learn`` (a pass over an iteration's positions, an optimiser step a minibatch).

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

**Slots.** Where a game has too many action ids for the search's tree to
keep a statistic for each (Tiles: 212,089, of which a few hundred are legal
at once), the search runs over ``slots`` candidates a node instead: the
legal actions the network thinks likeliest, all of them wherever there are
no more than ``slots`` (the tree keeps each candidate's action id). The
policy target is then over those candidates, and a trajectory keeps their
ids (``-1``: an empty slot) where it would keep the legal mask.
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
    legal: Any  # its legal actions (with slots: the candidates' action ids)
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


def candidates(logits: Any, slots: int) -> tuple[Any, Any]:
    """The ``slots`` likeliest legal actions of masked ``logits``: their
    logits and action ids, ``-1`` for a slot with no legal action left."""
    top, ids = jax.lax.top_k(logits, slots)
    return top, jnp.where(top > jnp.finfo(logits.dtype).min, ids, -1)


def at_slots(values: Any, ids: Any) -> Any:
    """``values[i, ids[i, j]]`` for each game ``i`` and slot ``j``."""
    return jnp.take_along_axis(values, jnp.maximum(ids, 0), axis=1)


def staggered(env: Any, games: Any, key: Any, most: int) -> Any:
    """``games`` each advanced by its own random number (0 to ``most - 1``)
    of uniformly random legal moves, none to its end: self-play games that
    start together and last alike (every Tuileries game is 64 decisions)
    would otherwise stay in step for ever, so that each iteration saw one
    stage of the game alone."""
    count = games.current_player.shape[0]
    offsets_key, moves_key = jax.random.split(key)
    offsets = jax.random.randint(offsets_key, (count,), 0, most)

    def one(state: Any, move: Any) -> tuple[Any, None]:
        number, key = move
        choose, chance = jax.random.split(key)
        action = jax.random.categorical(choose, jnp.where(state.legal_action_mask, 0.0, -jnp.inf))
        following = jax.vmap(env.step)(state, action, jax.random.split(chance, count))
        advance = (number < offsets) & ~following.terminated
        return jax.tree.map(lambda new, old: jnp.where(advance.reshape((-1,) + (1,) * (old.ndim - 1)), new, old),
                            following, state), None

    return jax.lax.scan(one, games, (jnp.arange(most), jax.random.split(moves_key, most)))[0]


def make_functions(env: Any, simulations: int, considered: int, optimiser: Any, value_weight: float,
                   slots: int = 0, board: dict[str, int] | None = None) -> Any:
    """``(play, learn, value_targets)`` for ``env``, compiled on first call;
    ``slots`` (0: every action id) and ``board`` (the network's board layout, if it has one) as in the module docs."""
    seats = env.num_players
    ring = jnp.arange(seats)

    def evaluate(params: Any, state: Any) -> tuple[Any, Any]:
        logits, value = forward(params, state.observation, jnp, board)
        return masked(logits, state.legal_action_mask, jnp), value

    def searched(logits: Any) -> tuple[Any, Any]:
        """What the search ranges over: the logits and action ids of the candidates (every id, without slots)."""
        if not slots:
            return logits, jnp.broadcast_to(jnp.arange(logits.shape[-1]), logits.shape)
        return candidates(logits, slots)

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
        state, root, ids = embedding
        mover = state.current_player
        action = pick(ids, action)
        following = jax.vmap(env.step)(state, action, jax.random.split(key, action.shape[0]))
        logits, value = evaluate(params, following)
        logits, ids = searched(logits)
        over = following.terminated
        after = following.current_player
        output = mctx.RecurrentFnOutput(
            reward=jnp.where(over & ~state.terminated, side(mover, root) * pick(results_of(following.rewards), root), 0.0),
            discount=jnp.where(over, 0.0, side(mover, root) * side(after, root)),
            prior_logits=logits,
            value=jnp.where(over, 0.0, side(after, root) * pick(by_seat(value, after), root)),
        )
        return output, (following, root, ids)

    def decide(params: Any, state: Any, key: Any) -> tuple[Any, Any, Any]:
        """The search's action id, its improved policy, and the ids the policy is over."""
        logits, value = evaluate(params, state)
        logits, ids = searched(logits)
        mover = state.current_player
        root = mctx.RootFnOutput(prior_logits=logits, value=pick(by_seat(value, mover), mover),
                                 embedding=(state, mover, ids))
        invalid = ids < 0 if slots else ~state.legal_action_mask
        output = mctx.gumbel_muzero_policy(params, key, root, recurrent, num_simulations=simulations,
                                           invalid_actions=invalid, max_num_considered_actions=considered)
        return pick(ids, output.action), output.action_weights, ids

    def play(params: Any, state: Any, key: Any, steps: int) -> tuple[Any, Trajectory]:
        games = state.current_player.shape[0]

        def one(carry: Any, key: Any) -> tuple[Any, Trajectory]:
            state = carry
            search, chance, fresh = jax.random.split(key, 3)
            action, policy, ids = decide(params, state, search)
            following = jax.vmap(env.step)(state, action, jax.random.split(chance, games))
            restarted = jax.vmap(env.init)(jax.random.split(fresh, games))
            ended = following.terminated
            record = Trajectory(state.observation, ids if slots else state.legal_action_mask, policy,
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
        logits, value = forward(params, observation, jnp, board, learning=True)
        if slots:  # the policy is over the candidates whose ids ``legal`` holds
            logits, legal = at_slots(logits, legal), legal >= 0
        logits = masked(logits, legal, jnp)
        policy_loss = optax.softmax_cross_entropy(logits, policy).mean()
        value_loss = ((value - target) ** 2).mean()
        return policy_loss + value_weight * value_loss, (policy_loss, value_loss)

    def learn(params: Any, opt_state: Any, positions: Any, order: Any, batch: int) -> tuple[Any, Any, Any]:
        """One pass over ``positions`` in ``order``, a step of the optimiser
        each ``batch`` of them (a last part batch is left out): one
        compiled loop, not a call (and four gathers) a batch. The new
        parameters and optimiser state, and each batch's losses."""
        def one(carry: tuple[Any, Any], chosen: Any) -> tuple[tuple[Any, Any], Any]:
            params, opt_state = carry
            (_, parts), grads = jax.value_and_grad(loss, has_aux=True)(
                params, jax.tree.map(lambda a: a[chosen], positions))
            updates, opt_state = optimiser.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), parts

        batches = order[:order.shape[0] // batch * batch].reshape(-1, batch)
        (params, opt_state), parts = jax.lax.scan(one, (params, opt_state), batches)
        return params, opt_state, parts

    return (jax.jit(play, static_argnames="steps"), jax.jit(learn, static_argnames="batch"), jax.jit(value_targets))
