"""Exceptions raised by the protocol.

Every error is a :class:`ValueError` so callers that only care about "bad
input" can catch one type; the subclasses say which kind of input was bad.
"""


class IllegalActionError(ValueError):
    """An action that is not legal in the current state.

    The message names the action and the decision being made; the state that
    raised it is unchanged.
    """


class RecordError(ValueError):
    """A game record or serialised state that cannot be loaded.

    The message says what is wrong and where (which field, which action).
    """
