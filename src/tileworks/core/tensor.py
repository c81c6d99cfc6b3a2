"""Building observation tensors: flat lists of floats written segment by segment.

Each game's ``observation`` module writes its segments in a fixed order
(documented in the game's rules document, "Observation tensor"). Every value
lies in [0, 1]: one-hot codes and bit planes are 0 or 1, counts and scores
are divided by a bound they cannot exceed.

>>> t = Tensor()
>>> t.one_hot(3, 1); t.bits(0b101, 3); t.fraction(2, 8)
>>> t.values
[0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.25]
"""

from __future__ import annotations


class Tensor:
    """A flat observation being written."""

    __slots__ = ("values",)

    def __init__(self) -> None:
        self.values: list[float] = []

    def one_hot(self, size: int, index: int) -> None:
        """``size`` entries, 1 at ``index`` (all 0 when ``index`` is out of range, e.g. -1 for none)."""
        segment = [0.0] * size
        if 0 <= index < size:
            segment[index] = 1.0
        self.values += segment

    def flag(self, value: bool) -> None:
        """One entry: 1 if ``value``, else 0."""
        self.values.append(float(value))

    def bits(self, mask: int, size: int) -> None:
        """Bit ``i`` of ``mask`` as entry ``i``, for ``size`` bits."""
        self.values += [float(mask >> i & 1) for i in range(size)]

    def fraction(self, count: float, bound: float) -> None:
        """``count / bound``, clipped to [0, 1]."""
        self.values.append(min(max(count / bound, 0.0), 1.0))

    def fractions(self, counts: list[int] | tuple[int, ...], bound: float, size: int | None = None) -> None:
        """One ``fraction`` per count, padded with zeros to ``size`` entries."""
        for count in counts:
            self.fraction(count, bound)
        if size is not None:
            self.values += [0.0] * (size - len(counts))

