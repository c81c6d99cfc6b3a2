"""JSON from outside: records, positions and WebSocket messages are read with
a bound on how deeply they nest, so a document nested thousands deep is
refused with a message instead of exhausting the parser's stack.

>>> loads('{"tokens": []}')
{'tokens': []}
>>> loads("[" * 100_000 + "]" * 100_000)
Traceback (most recent call last):
...
tileworks.core.jsontext.TooDeepError: JSON nested more than 64 levels deep
"""

from __future__ import annotations

import json
from typing import Any

#: the deepest nesting any document of ours needs, with room to spare
#: (a record nests 3 levels deep, a saved position 4)
MAX_DEPTH = 64


class TooDeepError(ValueError):
    """A JSON document nested more deeply than its reader allows."""


def depth(value: Any) -> int:
    """How deeply ``value`` nests lists and dicts (0 for a scalar), counted
    without recursion.

    >>> depth(1), depth([]), depth({"a": [[1], 2]})
    (0, 1, 3)
    """
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in item)
    return deepest


def loads(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads``, refusing documents nested more than ``max_depth`` deep
    (:class:`TooDeepError`); malformed JSON raises ``json.JSONDecodeError``
    as usual."""
    try:
        value = json.loads(text)
    except RecursionError:  # deeper than the parser's stack allows, so far deeper than max_depth
        value = None
        too_deep = True
    else:
        too_deep = depth(value) > max_depth
    if too_deep:
        raise TooDeepError(f"JSON nested more than {max_depth} levels deep")
    return value
