"""The JSON text of the table's socket messages, written by orjson where it is installed.

A move sends each seat's socket a state message; writing that JSON with the standard library
took about a sixth of the server's time per move (its encoder object is made anew for every call,
and it writes small strings one at a time). orjson writes the same values about seven times faster.
Its text differs only in spacing (none) and in what JSON cannot hold anyway (NaN becomes null);
a value orjson refuses (an integer wider than 64 bits, a type it does not know) is written by the
standard library instead, so ``dumps`` accepts whatever ``json.dumps`` does.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["dumps", "loads", "NESTED"]

#: The one line for a message or body nested deeper than the JSON reader goes (HTTP and websocket alike).
NESTED = "not valid JSON here: its arrays or objects are nested too deeply; send one JSON object a few levels deep"

_stdlib: Callable[[Any], str] = json.JSONEncoder(check_circular=False).encode


def _compiled() -> Callable[[Any], str] | None:
    try:
        import orjson
    except ImportError:  # the web extra brings orjson; without it the standard library writes
        return None
    write, options, refused = orjson.dumps, orjson.OPT_NON_STR_KEYS, orjson.JSONEncodeError

    def dumps(value: Any) -> str:
        try:
            return write(value, option=options).decode()
        except refused:
            return _stdlib(value)

    return dumps


#: JSON text of ``value`` (views hold no cycles, so none is looked for)
dumps: Callable[[Any], str] = _compiled() or _stdlib


def loads(text: str) -> Any:
    """The JSON value of a client's text; ``ValueError`` with one line saying what was wrong.

    A deeply nested text (8,000 ``[``) makes the standard reader raise ``RecursionError``, which is
    not a ``ValueError``: it is turned into the same one line an HTTP body gets.
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not valid JSON ({exc.msg}); send a JSON object") from None
    except RecursionError:
        raise ValueError(NESTED) from None
