"""The optional extras, and the import error that names the one to install.

Each optional part imports its libraries inside ``try``; on ``ImportError`` it
raises ``missing_extra(...)`` instead, so the message is the fix:
``freetrader.adapters.pettingzoo needs the rl extra (pettingzoo is missing): pip install 'freetrader[rl]'``.
"""

from __future__ import annotations

__all__ = ["EXTRAS", "missing_extra"]

#: extra -> what it is for (pyproject.toml lists what each installs)
EXTRAS = {
    "web": "the browser table, `freetrader serve` (SQLite)",
    "postgres": "the browser table on PostgreSQL",
    "analysis": "`report` plots and `tournament` ratings",
    "ray": "`simulate --backend ray`",
    "rl": "the PettingZoo and Gymnasium environments",
    "openspiel": "the OpenSpiel game",
    "all": "all of the above",
}


def missing_extra(extra: str, what: str, exc: ImportError) -> ImportError:
    """An ``ImportError`` saying that ``what`` needs ``extra``, and the pip command that installs it."""
    assert extra in EXTRAS, extra
    missing = exc.name or str(exc)
    return ImportError(f"{what} needs the {extra} extra ({missing} is missing): pip install 'freetrader[{extra}]'",
                       name=exc.name)
