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
