"""Policy-and-value networks: the one definition that training (JAX, in
:mod:`tileworks.learn`) and play (NumPy, here, so that a player never needs
JAX) both run.

A network reads a seat's observation tensor (the game's
``observation_tensor``) and gives a logit for every action id and a value
in [-1, 1]: the seat's expected result, from a loss (-1) through a shared
or drawn game (0) to a win (1). A network for two seats gives the mover's
value alone (the other seat's is its negation); one for three or more
gives a value for every seat, counted from the mover (``[..., seats]``:
the mover, the next seat, ...), as each seat's result is its own. It is a
residual MLP::

    x = act(obs @ W_in + b_in)
    x = x + W2 act(W1 norm(x) + b1) + b2          (for each block)
    x = act(norm(x))
    logits = x @ W_policy + b_policy
    value = tanh(W_v2 act(W_v1 x + b_v1) + b_v2)

A game whose observation is a board (``Game.board_layout``: planes of
cells, and actions that place on those cells, such as Tiles with its
212,089 action ids) gets the same network made of convolutions instead, so
that its size does not grow with the board's::

    x = act(conv3(board, W_in) + b_in + globals @ W_g + b_g)
    x = x + conv3(act(conv3(norm(x), W1) + b1), W2) + b2   (for each block)
    x = act(norm(x));  pooled = [mean of x over the cells, max of x over the cells]
    logits = [x @ W_policy + b_policy for each cell, pooled @ W_extra + b_extra]
                (or channel by channel, where the layout's "order" says so)
    value = tanh(W_v2 act(W_v1 pooled + b_v1) + b_v2)

(``conv3``: a 3 x 3 convolution over the cells, zero beyond the board.)

A game with several boards (KILN: the kiln in its rack, and the
warehouse a tile group is copied into) draws them side by side on one
grid of cells, a *canvas* layout (``Game.board_layout`` with
``"inputs"``): each plane's cells are read from wherever they lie in the
observation, cells that belong to no board are kept at zero (so a board's
edge reads as the end of the board, as on a board of its own), the pooled
features are taken board by board, and each action id names the cell and
channel its logit is read at.

``act`` is a PReLU (He et al., "Delving deep into rectifiers", 2015): a
unit passes what is positive and a learned fraction of what is negative
(the layer's ``slope``, one a unit, starting at a quarter). A plain ReLU
passes nothing below zero, and a unit pushed below zero for every input
stops learning for good: the 2-player Tuileries network trained before
2026-11-27 had 83% of its value layer's units so, and its value said
nothing (``bench/bench_values.py``). A network saved without slopes
(those older ones) is read with plain ReLUs, as it was trained.

``forward`` takes the array module (``numpy`` or ``jax.numpy``) as an
argument, so both engines compute the same function with the same names.
A network is saved as a ``.npz`` of its arrays (float16: a few MB at most)
beside a ``.json`` that says what it was trained for and how.

>>> import numpy as np
>>> params = init_params(np.random.default_rng(0), observation_size=4, actions=3, hidden=8, blocks=1)
>>> logits, value = forward(params, np.ones((2, 4), dtype=np.float32), np)
>>> logits.shape, value.shape, bool(np.all(np.abs(value) <= 1))
((2, 3), (2,), True)
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

#: a layer norm's guard against a zero variance
EPSILON = 1e-5
#: the least spread a standardised number is divided by, and how far from its mean (in spreads) it
#: may reach: a number that was nearly constant in the positions it was measured on is not blown up
#: where it moves (the clipping of PPO's observation normalisation, Stable-Baselines3's VecNormalize)
MIN_SPREAD, MOST_SPREADS = 1e-3, 10.0
#: a board network's arrays that standardise its numbers off the board (:func:`standardise_globals`)
STANDARDISATION = ("globals/mean", "globals/spread")
#: the share of a negative input a new network's units pass at first (PReLU, He et al. 2015)
SLOPE = 0.25


def init_params(rng: Any, observation_size: int, actions: int, hidden: int = 256, blocks: int = 2,
                value_hidden: int = 64, seats: int = 2, slopes: bool = True) -> dict[str, np.ndarray]:
    """A new network's arrays (NumPy, float32), He-initialised; ``rng`` is a
    ``numpy.random.Generator``. The policy layer starts at zero: every legal
    action equally likely at first. ``seats``: 2 gives one value (the
    mover's), more give one for each seat. ``slopes``: PReLU units (else
    plain ReLUs, as networks before 2026-11-27 had)."""

    def dense(fan_in: int, fan_out: int, scale: float = 1.0) -> np.ndarray:
        return (rng.standard_normal((fan_in, fan_out)) * scale * np.sqrt(2.0 / fan_in)).astype(np.float32)

    params = {"in/w": dense(observation_size, hidden), "in/b": np.zeros(hidden, np.float32)}
    for i in range(blocks):
        params[f"block{i}/norm/scale"] = np.ones(hidden, np.float32)
        params[f"block{i}/norm/bias"] = np.zeros(hidden, np.float32)
        params[f"block{i}/w1"] = dense(hidden, hidden)
        params[f"block{i}/b1"] = np.zeros(hidden, np.float32)
        params[f"block{i}/w2"] = dense(hidden, hidden, scale=0.1)  # a block starts near the identity
        params[f"block{i}/b2"] = np.zeros(hidden, np.float32)
    params.update({
        "out/norm/scale": np.ones(hidden, np.float32), "out/norm/bias": np.zeros(hidden, np.float32),
        "policy/w": np.zeros((hidden, actions), np.float32), "policy/b": np.zeros(actions, np.float32),
        "value/w1": dense(hidden, value_hidden), "value/b1": np.zeros(value_hidden, np.float32),
        "value/w2": dense(value_hidden, value_outputs(seats), scale=0.1),
        "value/b2": np.zeros(value_outputs(seats), np.float32),
    })
    return _with_slopes(params, hidden, blocks, value_hidden) if slopes else params


def _with_slopes(params: dict[str, np.ndarray], hidden: int, blocks: int, value_hidden: int) -> dict[str, np.ndarray]:
    """``params`` with a PReLU slope for each unit of each activation."""
    widths = {"in": hidden, "out": hidden, "value": value_hidden, **{f"block{i}": hidden for i in range(blocks)}}
    return {**params, **{f"{name}/slope": np.full(width, SLOPE, np.float32) for name, width in widths.items()}}


def init_board_params(rng: Any, observation_size: int, actions: int, board: dict[str, int], hidden: int = 32,
                      blocks: int = 2, value_hidden: int = 64, seats: int = 2, slopes: bool = True) -> dict[str, np.ndarray]:
    """A new convolutional network's arrays for a game with a board layout
    (``Game.board_layout``); ``hidden`` is the channels a cell; ``slopes`` as in :func:`init_params`.

    >>> board = {"planes": 2, "height": 3, "width": 4, "channels": 5}
    >>> params = init_board_params(np.random.default_rng(0), 2 * 12 + 6, 5 * 12 + 1, board, hidden=8, blocks=1)
    >>> logits, value = forward(params, np.ones((7, 30), np.float32), np, board)
    >>> logits.shape, value.shape
    ((7, 61), (7,))
    """
    planes, cells, channels = board["planes"], board["height"] * board["width"], board["channels"]
    extras, globals_ = actions - cells * channels, observation_size - planes * cells
    pooled = 2 * hidden
    if is_canvas(board):
        canvas = _canvas(board)
        extras, globals_, pooled = len(canvas.extras), len(canvas.globals), 2 * hidden * len(canvas.regions)

    def dense(*shape: int, scale: float = 1.0) -> np.ndarray:
        fan_in = int(np.prod(shape[:-1]))
        return (rng.standard_normal(shape) * scale * np.sqrt(2.0 / fan_in)).astype(np.float32)

    params = {"in/w": dense(3, 3, planes, hidden), "in/b": np.zeros(hidden, np.float32),
              "globals/w": dense(max(globals_, 1), hidden)[:globals_], "globals/b": np.zeros(hidden, np.float32)}
    for i in range(blocks):
        params[f"block{i}/norm/scale"] = np.ones(hidden, np.float32)
        params[f"block{i}/norm/bias"] = np.zeros(hidden, np.float32)
        params[f"block{i}/w1"] = dense(3, 3, hidden, hidden)
        params[f"block{i}/b1"] = np.zeros(hidden, np.float32)
        params[f"block{i}/w2"] = dense(3, 3, hidden, hidden, scale=0.1)
        params[f"block{i}/b2"] = np.zeros(hidden, np.float32)
    params.update({
        "out/norm/scale": np.ones(hidden, np.float32), "out/norm/bias": np.zeros(hidden, np.float32),
        "policy/w": np.zeros((hidden, channels), np.float32), "policy/b": np.zeros(channels, np.float32),
        "extra/w": np.zeros((pooled, extras), np.float32), "extra/b": np.zeros(extras, np.float32),
        "value/w1": dense(pooled, value_hidden), "value/b1": np.zeros(value_hidden, np.float32),
        "value/w2": dense(value_hidden, value_outputs(seats), scale=0.1),
        "value/b2": np.zeros(value_outputs(seats), np.float32),
    })
    return _with_slopes(params, hidden, blocks, value_hidden) if slopes else params


def value_outputs(seats: int) -> int:
    """How many values a network for ``seats`` seats gives: one for two (zero-sum), else one a seat."""
    return 1 if seats == 2 else seats


def seat_values(value: Any, mover: int, seats: int) -> list[float]:
    """Every seat's value, by seat number, from one position's network value
    for ``mover`` (a number for two seats, a vector counted from the mover
    for more).

    >>> seat_values(0.5, mover=1, seats=2)
    [-0.5, 0.5]
    >>> seat_values(np.array([0.9, -0.2, -0.7]), mover=2, seats=3)
    [-0.2, -0.7, 0.9]
    """
    if seats == 2:
        value = float(value)
        return [value if seat == mover else -value for seat in range(2)]
    return [float(value[(seat - mover) % seats]) for seat in range(seats)]


def blocks_of(params: dict[str, Any]) -> int:
    return sum(1 for name in params if name.endswith("/w1") and name.startswith("block"))


def _norm(x: Any, scale: Any, bias: Any, xp: Any) -> Any:
    """Layer normalisation over the last axis. In NumPy, as sums divided
    by the count: the values ``mean()`` gives, without its overhead on small arrays."""
    if xp is not np:
        mean = x.mean(axis=-1, keepdims=True)
        variance = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / xp.sqrt(variance + EPSILON) * scale + bias
    count = x.shape[-1]
    centred = x - x.sum(axis=-1, keepdims=True) / count
    variance = (centred * centred).sum(axis=-1, keepdims=True) / count
    return centred / np.sqrt(variance + EPSILON) * scale + bias


def _act(a: Any, params: dict[str, Any], name: str, xp: Any) -> Any:
    """The activation of layer ``name``: a PReLU with the layer's slopes
    (``name/slope``), or a plain ReLU for a network saved without them."""
    slope = params.get(f"{name}/slope")
    if slope is None:
        return xp.maximum(a, 0)
    return xp.where(a > 0, a, slope * a)


def _conv3(x: Any, w: Any, xp: Any, learning: bool = False,
           padding: tuple[tuple[int, int], ...] = ((1, 1), (1, 1))) -> Any:
    """A 3 x 3 convolution of cells ``x [..., H, W, in]`` with ``w [3, 3, in, out]``,
    zero beyond the edges (``padding``: the rows above and below, the
    columns left and right, that are taken as zero; by default one each, so
    the output has the input's cells).

    In NumPy, one matrix product of every cell's 3 x 3 patch of inputs
    (im2col), which costs a third of nine shifted products on a Tuileries
    board (docs/performance.md, "A convolution in one product"). In JAX,
    XLA's convolution (on a CPU three times as fast as the sum of nine
    shifted matrix products below), except where it is ``learning`` on a
    CPU: there XLA's gradient of a convolution inside a loop (the training
    step's ``lax.scan``) runs some 25 times slower than outside one, and the
    sum's gradient does not (docs/performance.md, "Convolutions' gradients on a CPU")."""
    if xp is np:
        return _conv3_patches(x, w, padding)
    if not (learning and _on_cpu()):
        import jax

        cells = x.reshape((-1,) + x.shape[-3:])
        out = jax.lax.conv_general_dilated(cells, w, (1, 1), padding, dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return out.reshape(x.shape[:-3] + out.shape[-3:])
    padded = xp.pad(x, [(0, 0)] * (x.ndim - 3) + [*padding, (0, 0)])
    height, width = padded.shape[-3] - 2, padded.shape[-2] - 2
    return sum(padded[..., dy:dy + height, dx:dx + width, :] @ w[dy, dx] for dy in range(3) for dx in range(3))


def _conv3_patches(x: np.ndarray, w: np.ndarray, padding: tuple[tuple[int, int], ...]) -> np.ndarray:
    """:func:`_conv3` in NumPy: each cell's nine neighbourhoods side by side, times ``w`` in one product."""
    (top, bottom), (left, right) = padding
    rows, columns, channels = x.shape[-3:]
    padded = np.zeros(x.shape[:-3] + (rows + top + bottom, columns + left + right, channels), x.dtype)
    padded[..., top:top + rows, left:left + columns, :] = x
    height, width = padded.shape[-3] - 2, padded.shape[-2] - 2
    patches = np.concatenate([padded[..., dy:dy + height, dx:dx + width, :] for dy in range(3) for dx in range(3)],
                             axis=-1)
    out = patches.reshape(-1, 9 * channels) @ w.reshape(9 * channels, -1)
    return out.reshape(x.shape[:-3] + (height, width, -1))


def _on_cpu() -> bool:
    import jax

    return jax.default_backend() == "cpu"


def _max_over_cells(x: Any, xp: Any) -> Any:
    """Each channel's largest value over the cells of ``x [..., H, W, C]``.
    In JAX, read at the first largest cell: the gradient of a plain max
    divides among equal cells by counting them, and XLA's unoptimised CPU
    code (the tests' -O0) counted none and gave NaN."""
    return _max_over_rows(x.reshape(x.shape[:-3] + (-1, x.shape[-1])), xp)


def _max_over_rows(x: Any, xp: Any) -> Any:
    """Each channel's largest value over the cells of ``x [..., cells, C]`` (as :func:`_max_over_cells`)."""
    if xp is np:
        return x.max(axis=-2)
    first = xp.argmax(x, axis=-2)
    return xp.take_along_axis(x, first[..., None, :], axis=-2)[..., 0, :]


def _board_trunk(params: dict[str, Any], observation: Any, xp: Any, board: dict[str, int],
                 learning: bool = False) -> tuple[Any, Any]:
    """:func:`_trunk` for a board network: the logits, and the pooled features the value head reads."""
    if is_canvas(board):
        return _canvas_trunk(params, observation, xp, board, learning)
    if xp is not np and _corner_window(params, board):
        return _corner_trunk(params, observation, board, learning)
    return _whole_board_trunk(params, observation, xp, board, learning)


def _whole_board_trunk(params: dict[str, Any], observation: Any, xp: Any, board: dict[str, int],
                       learning: bool = False) -> tuple[Any, Any]:
    """:func:`_board_trunk`, every cell of the board computed."""
    planes, height, width = board["planes"], board["height"], board["width"]
    cells = planes * height * width
    batch = observation.shape[:-1]
    x = xp.moveaxis(observation[..., :cells].reshape(batch + (planes, height, width)), -3, -1)
    context = _context(params, observation[..., cells:], xp)
    x = _board_body(params, x, context[..., None, None, :], lambda h, w: _conv3(h, w, xp, learning), xp)
    return _board_heads(params, x, board, xp)


def is_canvas(board: dict[str, Any]) -> bool:
    """Whether a board layout is a canvas (:func:`check_canvas`): its cells read from anywhere in the observation.

    >>> is_canvas({"planes": 12, "height": 47, "width": 47, "channels": 96})
    False
    """
    return "inputs" in board


@dataclass(frozen=True)
class _Canvas:
    """A canvas layout's index arrays (see :func:`check_canvas` for the layout itself)."""

    inputs: np.ndarray  # [planes * cells]: where each plane's cell is read in the extended observation
    mixed: np.ndarray  # [D, K, 2]: each derived entry, a sum of K products of two observation entries
    globals: np.ndarray  # the observation entries every cell is told
    mask: np.ndarray  # [height, width, 1]: 1 on a board's cells, 0 between boards
    regions: tuple[np.ndarray, ...]  # each board's cells, pooled apart
    extras: np.ndarray  # the action ids read from the pooled features, in order
    logit_at: np.ndarray  # [actions, K]: where each action id's logit is read, in [cells * channels | extras]
    logit_weight: np.ndarray  # [actions, K]: how much each of those places counts (a mean; 0 for padding)


#: the canvas layouts seen lately, by identity (a layout is a plain dict, read at every forward pass)
_CANVASES: dict[int, tuple[dict[str, Any], _Canvas]] = {}
_CANVASES_KEPT = 16


def _canvas(board: dict[str, Any]) -> _Canvas:
    """The index arrays of the canvas layout ``board``, made once a layout object."""
    seen = _CANVASES.get(id(board))
    if seen is not None and seen[0] is board:
        return seen[1]
    check_canvas(board)
    cells, channels = board["height"] * board["width"], board["channels"]
    mixed = np.asarray(board.get("mixed") or np.zeros((0, 1, 2)), np.int64)
    extended = board["observation"] + len(mixed) + 2  # the observation, the derived entries, then 0 and 1
    inputs = np.asarray(board["inputs"], np.int64)
    inputs = np.where(inputs < 0, extended + inputs, inputs)  # -1 reads 0, -2 reads 1
    mask = np.zeros(cells, np.float32)
    regions = tuple(np.asarray(region, np.int64) for region in board["regions"])
    for region in regions:
        mask[region] = 1.0
    slots = [[slot] if isinstance(slot, int) else list(slot) for slot in board["actions"]]
    extras = np.asarray([action for action, read in enumerate(slots) if read == [-1]], np.int64)
    for k, action in enumerate(extras):
        slots[action] = [cells * channels + k]
    widest = max(len(read) for read in slots)
    logit_at = np.asarray([read + [0] * (widest - len(read)) for read in slots], np.int64)
    logit_weight = np.asarray([[1.0 / len(read)] * len(read) + [0.0] * (widest - len(read)) for read in slots],
                              np.float32)
    canvas = _Canvas(inputs, mixed, np.asarray(board["globals"], np.int64),
                     mask.reshape(board["height"], board["width"], 1), regions, extras, logit_at, logit_weight)
    if len(_CANVASES) >= _CANVASES_KEPT:
        del _CANVASES[next(iter(_CANVASES))]  # the oldest
    _CANVASES[id(board)] = (board, canvas)
    return canvas


def check_canvas(board: dict[str, Any]) -> None:
    """Raise ``ValueError`` naming the first fault of a canvas layout.

    Beside ``planes``, ``height``, ``width`` and ``channels``, a canvas
    layout holds: ``observation``, the observation's size; ``inputs``, for
    each plane's cells (plane by plane, row by row) the observation entry
    it reads, where ``-1`` reads 0, ``-2`` reads 1, and the observation's
    size plus ``d`` reads the ``d``-th derived entry; ``mixed`` (optional),
    the derived entries, each a sum of products of two observation entries
    (``[[a, b], ...]``: KILN's warehouse in play is the colour in play's
    one-hot times each warehouse); ``globals``, the observation entries
    told to every cell; ``regions``, each board's cells (the rest lie
    between boards); ``actions``, for each action id the slot its logit is
    read at (``cell * channels + channel``), a list of slots whose mean it
    is (KILN: a push's, over the line it shifts), or ``-1`` for one read
    from the pooled features.

    >>> check_canvas({"planes": 1, "height": 1, "width": 2, "channels": 1, "observation": 2,
    ...               "inputs": [0, 1], "globals": [], "regions": [[0, 1]], "actions": [0, 2]})
    Traceback (most recent call last):
    ...
    ValueError: canvas layout: action 1's slot 2 is not on the canvas (2 cells x 1 channels)
    """
    cells = board["height"] * board["width"]
    size, derived = board["observation"], len(board.get("mixed", []))
    if len(board["inputs"]) != board["planes"] * cells:
        raise ValueError(f"canvas layout: {len(board['inputs'])} inputs for {board['planes']} planes of {cells} cells")
    if any(not -2 <= i < size + derived for i in board["inputs"]):
        raise ValueError(f"canvas layout: an input reads past the observation ({size} entries, {derived} derived)")
    if any(not 0 <= i < size for pairs in board.get("mixed", []) for pair in pairs for i in pair):
        raise ValueError(f"canvas layout: a derived entry reads past the observation ({size} entries)")
    if len({len(pairs) for pairs in board.get("mixed", [])}) > 1:
        raise ValueError("canvas layout: every derived entry must sum the same number of products")
    if any(not 0 <= i < size for i in board["globals"]):
        raise ValueError(f"canvas layout: a global reads past the observation ({size} entries)")
    if any(not 0 <= c < cells for region in board["regions"] for c in region):
        raise ValueError(f"canvas layout: a region's cell is not on the canvas ({cells} cells)")
    for action, read in enumerate(board["actions"]):
        for slot in [read] if isinstance(read, int) else read:
            if not (0 <= slot < cells * board["channels"] or (slot == -1 and read == -1)):
                raise ValueError(f"canvas layout: action {action}'s slot {slot} is not on the canvas "
                                 f"({cells} cells x {board['channels']} channels)")


def canvas_planes(observation: Any, board: dict[str, Any], xp: Any = np) -> Any:
    """The boards of a canvas layout drawn from observations ``[..., size]``:
    ``[..., height, width, planes]``, zero between the boards."""
    canvas = _canvas(board)
    batch = observation.shape[:-1]
    parts = [observation]
    if len(canvas.mixed):
        parts.append((observation[..., canvas.mixed[..., 0]] * observation[..., canvas.mixed[..., 1]]).sum(axis=-1))
    parts.append(xp.broadcast_to(xp.asarray([1.0, 0.0], observation.dtype), batch + (2,)))
    extended = xp.concatenate(parts, axis=-1)
    drawn = extended[..., canvas.inputs].reshape(batch + (board["planes"], board["height"], board["width"]))
    return xp.moveaxis(drawn, -3, -1)


def _canvas_trunk(params: dict[str, Any], observation: Any, xp: Any, board: dict[str, Any],
                  learning: bool = False) -> tuple[Any, Any]:
    """:func:`_board_trunk` for a canvas layout: the boards drawn from the
    observation, convolved with the cells between them held at zero, pooled
    board by board."""
    canvas, height, width = _canvas(board), board["height"], board["width"]
    batch = observation.shape[:-1]
    x = canvas_planes(observation, board, xp)
    context = _context(params, observation[..., canvas.globals], xp)
    mask = canvas.mask
    x = _board_body(params, x, context[..., None, None, :], lambda h, w: _conv3(h * mask, w, xp, learning), xp)
    placed = (x @ params["policy/w"] + params["policy/b"]).reshape(batch + (-1,))
    cells = x.reshape(batch + (height * width, x.shape[-1]))
    pooled = xp.concatenate([part for region in canvas.regions
                             for part in (cells[..., region, :].mean(axis=-2), _max_over_rows(cells[..., region, :], xp))],
                            axis=-1)
    logits = xp.concatenate([placed, pooled @ params["extra/w"] + params["extra/b"]], axis=-1)
    if canvas.logit_at.shape[1] == 1:
        return logits[..., canvas.logit_at[:, 0]], pooled
    return (logits[..., canvas.logit_at] * canvas.logit_weight).sum(axis=-1), pooled


def _context(params: dict[str, Any], numbers: Any, xp: Any) -> Any:
    """What a board network's cells each receive from the observation's
    numbers off the board (points, hand sizes, the phase): a linear map of
    them, standardised first where the network holds their ``globals/mean``
    and ``globals/spread`` (the teacher's positions' means and spreads,
    fixed when a run starts by imitation: see :func:`standardise_globals`),
    and kept within :data:`MOST_SPREADS` of the mean."""
    if "globals/mean" in params:
        mean, spread = params["globals/mean"], params["globals/spread"]
        if xp is not np:  # constants: the optimiser never moves them
            from jax.lax import stop_gradient

            mean, spread = stop_gradient(mean), stop_gradient(spread)
        numbers = xp.clip((numbers - mean) / spread, -MOST_SPREADS, MOST_SPREADS)
    return numbers @ params["globals/w"] + params["globals/b"]


def standardise_globals(params: dict[str, Any], observations: Any, board: dict[str, Any],
                        least: float = MIN_SPREAD, keep_outputs: bool = False) -> dict[str, np.ndarray]:
    """``params`` with the means and spreads of ``observations``' numbers off
    the board (a sparse or dense ``[n, observation_size]``), so that each
    reaches the network on a scale of about one. The observations give a
    number as a fraction of the most it can ever be: Tuileries' points are
    out of 768, so a lead of ten points is 0.013 and the value barely sees
    it (LeCun et al., "Efficient BackProp", 1998: inputs of mean 0 and
    spread 1). A spread below ``least`` counts as ``least`` (a number that
    barely moves, or never, is not blown up); a network without these
    arrays reads its numbers as they are.

    ``keep_outputs``: for a network that has already learned on its numbers
    as they were (a run started before 2026-12-07), the standardisation is
    folded into the layer that reads them, which is scaled by the spreads
    and shifted by the means, so the network answers every position as
    before. A spread is widened where a measured position lies further
    than :data:`MOST_SPREADS` from the mean (a flag set in a few
    positions), so none of those is clipped; an unmeasured one beyond
    them still is. Its training from there moves that layer in steps the
    size of a spread, not of a whole scale (Adam's steps are about the
    learning rate whatever an input's size): what the network could
    barely move, it now can.

    >>> board = {"planes": 1, "height": 2, "width": 2, "channels": 1}
    >>> params = init_board_params(np.random.default_rng(0), 4 + 2, 4 + 1, board, hidden=4, blocks=1)
    >>> seen = np.array([[0, 0, 0, 0, 0.10, 1.0], [0, 0, 0, 0, 0.14, 0.0]], np.float32)
    >>> fixed = standardise_globals(params, seen, board)
    >>> [[round(float(v), 3) for v in fixed[name]] for name in ("globals/mean", "globals/spread")]
    [[0.12, 0.5], [0.02, 0.5]]
    >>> kept = standardise_globals(params, seen, board, keep_outputs=True)
    >>> bool(np.allclose(_context(kept, seen[:, 4:], np), _context(params, seen[:, 4:], np), atol=1e-6))
    True
    """
    if STANDARDISATION[0] in params:
        raise ValueError("the network's numbers off the board are standardised already")
    columns = _global_columns(board, observations.shape[1])
    numbers = observations[:, columns]
    numbers = numbers.toarray() if hasattr(numbers, "toarray") else np.asarray(numbers)
    numbers = numbers.astype(np.float64)
    mean = numbers.mean(axis=0)
    spread = np.maximum(numbers.std(axis=0), least)
    fixed = {**params}
    if keep_outputs:
        # none of the positions measured is clipped: a rare flag (KILN's) reaches past 10 spreads
        spread = np.maximum(spread, np.abs(numbers - mean).max(axis=0) / MOST_SPREADS)
        # ((x - mean) / spread) @ (spread * w) + (b + mean @ w) = x @ w + b
        w = np.asarray(params["globals/w"], np.float64)
        fixed["globals/w"] = (spread[:, None] * w).astype(np.float32)
        fixed["globals/b"] = (np.asarray(params["globals/b"], np.float64) + mean @ w).astype(np.float32)
    return {**fixed, "globals/mean": mean.astype(np.float32), "globals/spread": spread.astype(np.float32)}


def _global_columns(board: dict[str, Any], observation_size: int) -> np.ndarray:
    """The observation's entries a board network reads as numbers off the board."""
    if is_canvas(board):
        return np.asarray(_canvas(board).globals)
    return np.arange(board["planes"] * board["height"] * board["width"], observation_size)


def _board_body(params: dict[str, Any], x: Any, context: Any, conv: Any, xp: Any) -> Any:
    """The convolutional layers of a board network, from its input planes
    ``x`` to the features of each cell; ``conv(h, w)`` is the 3 x 3
    convolution, over whichever cells ``x`` holds."""
    x = _act(conv(x, params["in/w"]) + params["in/b"] + context, params, "in", xp)
    for i in range(blocks_of(params)):
        h = _norm(x, params[f"block{i}/norm/scale"], params[f"block{i}/norm/bias"], xp)
        h = _act(conv(h, params[f"block{i}/w1"]) + params[f"block{i}/b1"], params, f"block{i}", xp)
        x = x + conv(h, params[f"block{i}/w2"]) + params[f"block{i}/b2"]
    return _act(_norm(x, params["out/norm/scale"], params["out/norm/bias"], xp), params, "out", xp)


def _board_heads(params: dict[str, Any], x: Any, board: dict[str, int], xp: Any) -> tuple[Any, Any]:
    """The logits and pooled features from the features ``x [..., H, W, C]`` of every cell."""
    placed = x @ params["policy/w"] + params["policy/b"]  # [..., H, W, C]
    if board.get("order") == "channel":  # action ids channel by channel (Game.board_layout)
        placed = xp.moveaxis(placed, -1, -3)
    placed = placed.reshape(x.shape[:-3] + (-1,))
    pooled = xp.concatenate([x.mean(axis=(-3, -2)), _max_over_cells(x, xp)], axis=-1)
    logits = xp.concatenate([placed, pooled @ params["extra/w"] + params["extra/b"]], axis=-1)
    return logits, pooled


def reach_of(params: dict[str, Any]) -> int:
    """How many cells away a board network's features of a cell can see: one for each convolution."""
    return 1 + 2 * blocks_of(params)


def reads_near(params: dict[str, Any], board: dict[str, Any] | None) -> bool:
    """Whether a network reads one observation near its marks
    (:func:`_board_trunk_near`): a board network whose board, not a canvas,
    is wider than the cells its reach needs for every case of an empty cell."""
    if board is None or is_canvas(board):
        return False
    side = 2 * reach_of(params) + 1
    return board["height"] >= side and board["width"] >= side


def _board_trunk_near(params: dict[str, Any], observation: np.ndarray, board: dict[str, int],
                      actions: Sequence[int] | None = None) -> tuple[Any, Any] | None:
    """:func:`_board_trunk` for one observation (NumPy), computed only
    where it differs from an empty board, or ``None`` where that saves nothing.

    A cell further than the network's reach ``r`` from every marked cell
    (every cell whose planes are not all zero) sees only empty cells and
    the board's edges, so its features depend on nothing but how near it
    is to each edge (up to ``r``). A board of ``2r + 1`` cells a side
    holds every such case once; the cells within ``r`` of the marks are
    computed in full. In a Tiles game on a 47 x 47 frame, the marks cover
    some 9 x 7 cells: together about a fifth of the cells (docs/performance.md).
    With ``actions``, only their logits, in their order (the same values)."""
    if not reads_near(params, board):
        return None
    planes, height, width = board["planes"], board["height"], board["width"]
    reach = reach_of(params)
    side = 2 * reach + 1
    entries = planes * height * width
    x = np.moveaxis(observation[:entries].reshape(planes, height, width), 0, -1)
    marked = np.argwhere(x.any(axis=-1))
    if len(marked):
        top, left = np.maximum(marked.min(axis=0) - reach, 0)
        bottom, right = np.minimum(marked.max(axis=0) + reach + 1, (height, width))
    else:
        top = left = bottom = right = 0
    if side * side + (bottom - top) * (right - left) >= height * width:
        return None
    near, spread = _near_cells(height, width, reach, (top, bottom, left, right))
    inputs = np.concatenate([np.zeros((side * side, planes), np.float32), x[top:bottom, left:right].reshape(-1, planes)])

    def conv(h: np.ndarray, w: np.ndarray) -> np.ndarray:
        padded = np.concatenate([h, np.zeros((1, h.shape[-1]), h.dtype)])  # the last row: beyond the board
        return padded[near].reshape(len(h), -1) @ w.reshape(-1, w.shape[-1])

    context = _context(params, observation[entries:], np)
    features = _board_body(params, inputs, context, conv, np)
    # _board_heads, with each held cell's logits computed once and spread
    # into the output (a large temporary array costs more than the products)
    cells, channels = height * width, params["policy/w"].shape[1]
    placed = features @ params["policy/w"] + params["policy/b"]
    every = features[spread]
    pooled = np.concatenate([every.mean(axis=0), every.max(axis=0)])
    extra = pooled @ params["extra/w"] + params["extra/b"]
    channel_order = board.get("order") == "channel"
    if actions is not None:  # each one's logit read where its cell is held: Tiles' 212,089 are never all built
        actions = np.asarray(actions, dtype=np.int64)
        on_cell = actions < cells * channels
        if channel_order:
            channel, cell = np.divmod(actions[on_cell], cells)
        else:
            cell, channel = np.divmod(actions[on_cell], channels)
        logits = np.empty(len(actions), np.float32)
        logits[on_cell] = placed[spread[cell], channel]
        logits[~on_cell] = extra[actions[~on_cell] - cells * channels]
        return logits, pooled
    logits = np.empty(cells * channels + len(extra), np.float32)
    if channel_order:
        # mode "clip" (no index is out of range) lets np.take write to ``out`` without a copy
        np.take(placed.T, spread, axis=1, mode="clip", out=logits[:cells * channels].reshape(channels, cells))
    else:
        np.take(placed, spread, axis=0, mode="clip", out=logits[:cells * channels].reshape(cells, channels))
    logits[cells * channels:] = extra
    return logits, pooled


def _corner_window(params: dict[str, Any], board: dict[str, int]) -> int:
    """The side of the window :func:`_corner_trunk` computes for a layout
    with a ``"corner"`` (the cells its marks start from; 0 where it has
    none): the corner widened by the network's reach, where that leaves
    cells beyond it on both sides (else 0: the board is read whole).

    >>> params = {"block0/w1": 0, "block1/w1": 0}  # two blocks: a reach of five cells
    >>> _corner_window(params, {"height": 47, "width": 47, "corner": 19})
    24
    >>> _corner_window(params, {"height": 20, "width": 47, "corner": 19})
    0
    """
    reach, corner, shortest = reach_of(params), board.get("corner", 0), min(board["height"], board["width"])
    size = corner + reach
    return size if 0 < corner and size < shortest and 2 * reach + 1 <= shortest else 0


def _corner_trunk(params: dict[str, Any], observation: Any, board: dict[str, int], learning: bool) -> tuple[Any, Any]:
    """:func:`_board_trunk` in JAX for a board whose marks start at its
    top-left corner (the layout's ``"corner"``: Tiles draws its layout from
    the frame's first cells, so a game's tiles lie in some 16 x 16 of its
    47 x 47). Where every observation of the batch has its marks within
    ``corner`` rows and columns, the convolutions run over the corner
    widened by the network's reach, and over a board ``2 * reach + 1`` a
    side that holds once each case of a cell beyond it (which sees only
    empty cells and the edges, as in :func:`_board_trunk_near`); else, over
    the whole board. The same outputs (to float rounding), in a third of
    the products for Tiles: what self-play's search and the training step
    spend their time on."""
    import jax
    import jax.numpy as jnp

    planes, height, width, corner = board["planes"], board["height"], board["width"], board["corner"]
    marks = observation[..., :planes * height * width].reshape(observation.shape[:-1] + (planes, height, width))
    beyond = jnp.any(marks[..., corner:, :] != 0) | jnp.any(marks[..., :, corner:] != 0)
    return jax.lax.cond(beyond, lambda o: _whole_board_trunk(params, o, jnp, board, learning),
                        lambda o: _corner_window_trunk(params, o, board, learning), observation)


def _corner_window_trunk(params: dict[str, Any], observation: Any, board: dict[str, int],
                         learning: bool) -> tuple[Any, Any]:
    """:func:`_corner_trunk` where every mark lies within the corner. The
    cells held are those of the small board (``side * side``), then those
    of the window (``size * size``), row by row."""
    import jax.numpy as jnp

    planes, height, width = board["planes"], board["height"], board["width"]
    plan = _corner_plan(height, width, reach_of(params), _corner_window(params, board))
    side, size, rows, columns = plan.side, plan.size, plan.rows, plan.columns
    batch, cells = observation.shape[:-1], planes * height * width
    x = jnp.moveaxis(observation[..., :cells].reshape(batch + (planes, height, width)), -3, -1)
    inputs = jnp.concatenate([jnp.zeros(batch + (side * side, planes), x.dtype),
                              x[..., :size, :size, :].reshape(batch + (size * size, planes))], axis=-2)

    def conv(h: Any, w: Any) -> Any:
        channels = h.shape[-1]
        small = h[..., :side * side, :].reshape(batch + (side, side, channels))
        window = h[..., side * side:, :].reshape(batch + (size, size, channels))
        # the window's last neighbours, below it and to its right, are cells beyond it: the small board's
        right = small[..., rows[:size], columns[size], :]
        below = small[..., rows[size], :, :][..., columns[:size + 1], :]
        bordered = jnp.concatenate([jnp.concatenate([window, right[..., None, :]], axis=-2), below[..., None, :, :]],
                                   axis=-3)
        return jnp.concatenate([_conv3(small, w, jnp, learning).reshape(batch + (side * side, -1)),
                                _conv3(bordered, w, jnp, learning, padding=((1, 0), (1, 0))).reshape(
                                    batch + (size * size, -1))], axis=-2)

    context = _context(params, observation[..., cells:], jnp)
    features = _board_body(params, inputs, context[..., None, :], conv, jnp)
    placed = features @ params["policy/w"] + params["policy/b"]
    small = placed[..., :side * side, :].reshape(batch + (side, side, -1))
    # the whole board's cells: the window's beside the small board's to its right, then the small board's below
    top = jnp.concatenate([placed[..., side * side:, :].reshape(batch + (size, size, -1)),
                           small[..., rows[:size], :, :][..., columns[size:], :]], axis=-2)
    placed = jnp.concatenate([top, small[..., rows[size:], :, :][..., columns, :]], axis=-3)
    placed = placed.reshape(batch + (height * width, -1))
    if board.get("order") == "channel":
        placed = jnp.moveaxis(placed, -1, -2)
    mean = (features * plan.counts[:, None]).sum(axis=-2) / (height * width)
    pooled = jnp.concatenate([mean, _max_over_rows(jnp.take(features, plan.used, axis=-2), jnp)], axis=-1)
    logits = jnp.concatenate([placed.reshape(batch + (-1,)), pooled @ params["extra/w"] + params["extra/b"]], axis=-1)
    return logits, pooled


@dataclass(frozen=True)
class _CornerPlan:
    """Where :func:`_corner_window_trunk` finds each cell (its fixed indices)."""

    side: int  # the small board's side
    size: int  # the window's side
    rows: np.ndarray  # for each row of the whole board, the small board's row that holds it beyond the window
    columns: np.ndarray  # the same for each column
    counts: np.ndarray  # how many cells of the whole board each held cell stands for
    used: np.ndarray  # the held cells that stand for any


@functools.lru_cache(maxsize=8)
def _corner_plan(height: int, width: int, reach: int, size: int) -> _CornerPlan:
    side = 2 * reach + 1
    row, column = np.divmod(np.arange(height * width), width)
    inside = (row < size) & (column < size)
    spread = np.where(inside, side * side + row * size + column,
                      _fold(row, height, reach) * side + _fold(column, width, reach)).astype(np.int32)
    counts = np.bincount(spread, minlength=side * side + size * size).astype(np.float32)
    return _CornerPlan(side, size, _fold(np.arange(height), height, reach), _fold(np.arange(width), width, reach),
                       counts, np.flatnonzero(counts).astype(np.int32))


def _fold(i: np.ndarray, size: int, reach: int) -> np.ndarray:
    """Rows (or columns) ``i`` of a board ``size`` long, on a board ``2 *
    reach + 1`` long that holds each case of a cell far from every mark
    once: those within ``reach`` of an edge keep their distance from it,
    the others are the middle one.

    >>> _fold(np.arange(8), 8, 2).tolist()
    [0, 1, 2, 2, 2, 2, 3, 4]
    """
    side = 2 * reach + 1
    return np.where(i < reach, i, np.where(size - 1 - i < reach, side - size + i, reach))


@functools.lru_cache(maxsize=512)
def _near_cells(height: int, width: int, reach: int, box: tuple[int, int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """For :func:`_board_trunk_near`, whose cells are those of a small
    board ``2 * reach + 1`` a side, then those of the ``box`` (top, bottom,
    left, right) of the whole board: each cell's nine neighbours (``[cells,
    9]``, in the order of a convolution's weights; an index past the last
    cell means beyond the board), and, for each cell of the whole board
    row by row, the cell that holds its features."""
    side = 2 * reach + 1
    top, bottom, left, right = box

    def holder(row: np.ndarray, column: np.ndarray) -> np.ndarray:
        """The cell holding (row, column) of the whole board: in the box, else its fold."""
        boxed = (top <= row) & (row < bottom) & (left <= column) & (column < right)
        inside = side * side + (row - top) * (right - left) + (column - left)
        return np.where(boxed, inside, _fold(row, height, reach) * side + _fold(column, width, reach))

    small = np.divmod(np.arange(side * side), side)
    in_box = np.divmod(np.arange((bottom - top) * (right - left)), max(right - left, 1))
    in_box = (in_box[0] + top, in_box[1] + left)
    beyond = side * side + (bottom - top) * (right - left)
    groups = ((small, (side, side), lambda row, column: row * side + column), (in_box, (height, width), holder))
    neighbours = []
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            columns = []
            for (rows, cols), size, held in groups:
                row, column = rows + dy, cols + dx
                on_board = (row >= 0) & (row < size[0]) & (column >= 0) & (column < size[1])
                columns.append(np.where(on_board, held(row, column), beyond))
            neighbours.append(np.concatenate(columns))
    every = np.divmod(np.arange(height * width), width)
    near, spread = np.stack(neighbours, axis=1).astype(np.int32), holder(every[0], every[1]).astype(np.int32)
    near.setflags(write=False)  # shared by every call with the same box (the cache)
    spread.setflags(write=False)
    return near, spread


def _value_head(params: dict[str, Any], x: Any, xp: Any) -> Any:
    hidden = _act(x @ params["value/w1"] + params["value/b1"], params, "value", xp)
    value = xp.tanh(hidden @ params["value/w2"] + params["value/b2"])
    return value[..., 0] if value.shape[-1] == 1 else value


def forward(params: dict[str, Any], observation: Any, xp: Any, board: dict[str, int] | None = None,
            learning: bool = False) -> tuple[Any, Any]:
    """Logits ``[..., actions]`` and values ``[...]`` (two seats) or
    ``[..., seats]`` for observations ``[..., observation_size]``, computed
    with the array module ``xp``; ``board``: the game's board layout, for a
    network made by :func:`init_board_params`; ``learning``: JAX will take
    the gradient (the same outputs, computed the way whose gradient is faster)."""
    logits, features = _trunk(params, observation, xp, board, learning)
    return logits, _value_head(params, features, xp)


def value_inputs(params: dict[str, Any], observation: Any, board: dict[str, int] | None = None) -> np.ndarray:
    """What the value layer's units receive (NumPy, before their activation)
    for observations ``[..., observation_size]``. A unit that receives less
    than zero from every position is dead in a network of plain ReLUs
    (``bench/bench_values.py`` counts them)."""
    _, features = _trunk(params, np.asarray(observation, dtype=np.float32), np, board)
    return features @ params["value/w1"] + params["value/b1"]


def _trunk(params: dict[str, Any], observation: Any, xp: Any, board: dict[str, int] | None,
           learning: bool = False) -> tuple[Any, Any]:
    """The logits, and the features the value head reads."""
    if board is not None:
        return _board_trunk(params, observation, xp, board, learning)
    x = _act(observation @ params["in/w"] + params["in/b"], params, "in", xp)
    for i in range(blocks_of(params)):
        h = _norm(x, params[f"block{i}/norm/scale"], params[f"block{i}/norm/bias"], xp)
        h = _act(h @ params[f"block{i}/w1"] + params[f"block{i}/b1"], params, f"block{i}", xp)
        x = x + h @ params[f"block{i}/w2"] + params[f"block{i}/b2"]
    x = _act(_norm(x, params["out/norm/scale"], params["out/norm/bias"], xp), params, "out", xp)
    return x @ params["policy/w"] + params["policy/b"], x


def masked(logits: Any, legal: Any, xp: Any) -> Any:
    """Logits with every illegal action at the lowest float (it is never chosen)."""
    return xp.where(legal, logits, xp.finfo(logits.dtype).min)


def one_thread_for_products() -> Any:
    """Keep this process's NumPy matrix products (BLAS) to one thread: for
    good, in each worker process that plays games (the arena's, the balance
    lab's, the server's computer seats), or for a ``with`` block, where a
    process plays games itself (the arena and the lab on one worker, a game
    in the terminal). A network there reads one position at a time, whose
    products BLAS's own threads barely speed up; with the cores busy, those
    threads only take turns with each other's. Tiles' ``net`` against
    itself on 2 workers and 2 cores played 2.1 games a second without this
    and 27.5 with it; Tiles' ``net`` in one process beside a 2-worker arena
    took 35.7 ms a move without it and 1.7 ms with it
    (docs/performance.md, "Reading a large board near its tiles", "One
    BLAS thread for games played in the driver's own process")."""
    from threadpoolctl import threadpool_limits

    return threadpool_limits(1, user_api="blas")


# -- networks on disk ------------------------------------------------------------------------------
@dataclass
class Network:
    """A trained network for one game and option set, ready to play (NumPy)."""

    params: dict[str, np.ndarray]
    #: what it was trained for and how: game, options, training command, seed, steps, wall time...
    about: dict[str, Any] = field(default_factory=dict)

    @property
    def board(self) -> dict[str, int] | None:
        """The board layout of a convolutional network, else ``None``."""
        return self.about.get("board")

    def fingerprint(self) -> str:
        """Twelve hex digits of a hash of what the network answers with (its
        weights and board layout), not of what is written about it: two
        networks that answer alike have the same fingerprint.

        >>> import tileworks
        >>> tiles = tileworks.load_game("tiles")
        >>> Network.untrained(tiles).fingerprint() == Network.untrained(tiles).fingerprint()
        True
        >>> Network.untrained(tiles).fingerprint() == Network.untrained(tiles, seed=1).fingerprint()
        False
        """
        digest = hashlib.sha256(json.dumps(self.board, sort_keys=True).encode())
        for name in sorted(self.params):
            array = np.ascontiguousarray(self.params[name], dtype=np.float32)
            digest.update(f"{name} {array.shape}".encode())
            digest.update(array.tobytes())
        return digest.hexdigest()[:12]

    def evaluate(self, observation: Any, actions: Sequence[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Logits and values for a batch (or one) of observations, in float32;
        for one observation and ``actions`` (its legal ones, say), only
        those actions' logits, in their order. A board network reads one
        observation only where its board is marked (the same function as
        :func:`forward`, a few times faster on a large, sparse board), and
        there computes only the logits asked for."""
        observation = np.asarray(observation, dtype=np.float32)
        if actions is not None:
            if observation.ndim != 1:
                raise ValueError("evaluate: actions are for one observation; for several, use evaluate_many")
            actions = self._checked_actions(actions)
        if self.board is not None and observation.ndim == 1:
            near = _board_trunk_near(self.params, observation, self.board, actions)
            if near is not None:
                logits, features = near
                return logits, _value_head(self.params, features, np)
        logits, values = forward(self.params, observation, np, self.board)
        return (logits if actions is None else logits[actions]), values

    def _checked_actions(self, actions: Sequence[int]) -> np.ndarray:
        """``actions`` as an index array, each one of the actions this network scores."""
        chosen = np.asarray(actions, dtype=np.int64).reshape(-1)
        count = self.sizes()[1]
        outside = chosen[(chosen < 0) | (chosen >= count)]
        if len(outside):
            raise ValueError(f"evaluate: action {int(outside[0])} is not one of the {count} actions this network scores")
        return chosen

    def evaluate_many(self, observations: Sequence[Any],
                      actions: Sequence[Sequence[int]] | None = None) -> tuple[Any, np.ndarray]:
        """Logits ``[n, actions]`` and values for ``n`` observations: one
        forward pass over them all (a small network's products cost less a
        position in a batch), except where the network reads each one near its
        marks, which is faster one at a time (Tiles' 47 x 47 frame). With
        ``actions`` (a list for each observation), a list of each one's logits for
        its own actions instead of the logits' array."""
        stacked = np.asarray(observations, dtype=np.float32)
        wanted = [None] * len(stacked) if actions is None else actions
        if len(stacked) == 1 or reads_near(self.params, self.board):
            answers = [self.evaluate(observation, chosen) for observation, chosen in zip(stacked, wanted, strict=True)]
            logits = [logits for logits, _ in answers]
            return (np.stack(logits) if actions is None else logits), np.stack([value for _, value in answers])
        logits, values = self.evaluate(stacked)
        if actions is None:
            return logits, values
        return [row[self._checked_actions(chosen)] for row, chosen in zip(logits, actions, strict=True)], values

    def sizes(self) -> tuple[int, int, int]:
        """The observation size it reads, the actions it scores and its value outputs."""
        values = self.params["value/w2"].shape[1]
        if self.board is None:
            return self.params["in/w"].shape[0], self.params["policy/w"].shape[1], values
        board = self.board
        if is_canvas(board):
            return board["observation"], len(board["actions"]), values
        cells = board["height"] * board["width"]
        return (board["planes"] * cells + self.params["globals/w"].shape[0],
                board["channels"] * cells + self.params["extra/w"].shape[1], values)

    @classmethod
    def load(cls, path: str | Path) -> "Network":
        """A network saved by :meth:`save` (``NAME.npz`` beside ``NAME.json``)."""
        path = Path(path).with_suffix(".npz")
        with np.load(path) as arrays:
            params = {name: arrays[name].astype(np.float32) for name in arrays.files}
        about_path = path.with_suffix(".json")
        about = json.loads(about_path.read_text(encoding="utf-8")) if about_path.exists() else {}
        return cls(params, about)

    def save(self, path: str | Path, dtype: Any = np.float16) -> Path:
        """Write the arrays (``dtype``: float16 halves the size) and ``about``."""
        path = Path(path).with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **{name: np.asarray(value).astype(dtype) for name, value in self.params.items()})
        path.with_suffix(".json").write_text(json.dumps(self.about, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return path

    @classmethod
    def untrained(cls, game: Any, hidden: int = 16, blocks: int = 1, seed: int = 0) -> "Network":
        """A new network of the shape ``game`` (a ``Game``) needs, a board
        network where it has a board layout: for checking what an agent
        reads and does, not how well it plays.

        >>> import tileworks
        >>> Network.untrained(tileworks.load_game("tiles")).sizes()
        (26580, 212089, 1)
        """
        sizes = (game.observation_tensor_size(), game.num_distinct_actions())
        rng, board, seats = np.random.default_rng(seed), game.board_layout(), game.num_players()
        if board is None:
            return cls(init_params(rng, *sizes, hidden=hidden, blocks=blocks, seats=seats))
        return cls(init_board_params(rng, *sizes, board, hidden=hidden, blocks=blocks, seats=seats), {"board": board})

    def size_bytes(self) -> int:
        return sum(a.size * a.itemsize for a in self.params.values())
