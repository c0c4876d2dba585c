"""Golden playthroughs (``freetrader.testing.golden``): make and remake the files of this folder.

``python tests/golden/make_golden.py`` rebuilds every stored playthrough from its own record (the
same games, replayed by the code of this checkout); ``... GAME ...`` only those games'.
``--bots`` plays each stored game again with the bots its record names (for a rule change that
makes the old actions unplayable); ``new GAME --seats a,b,c --seed N [--option k=v ...]`` adds a
playthrough of a game. No list here names a game: the files are the cases. Regenerate only when a
rule change is intended, and say so in the commit.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import freetrader
from freetrader.testing.golden import (
    HEADER,
    check_playthrough,
    end_line,
    play,
    playthrough,
    read_record,
    stem,
    step_line,
)

__all__ = ["HEADER", "check_playthrough", "end_line", "read_record", "step_line", "main"]

HERE = Path(__file__).parent


def main(argv: list[str] | None = None, folder: Path = HERE) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="games to remake (default: all); or: new GAME")
    ap.add_argument("--bots", action="store_true", help="play the stored games again with the bots their records name")
    ap.add_argument("--from-records", action="store_true", help="(the default) replay each stored record")
    ap.add_argument("--seats", help="new: the bots, one a seat, e.g. heuristic,random,heuristic")
    ap.add_argument("--seed", type=int, help="new: the game's seed")
    ap.add_argument("--option", action="append", default=[], help="new: a game option k=v (JSON value)")
    ap.add_argument("--folder", type=Path, default=folder, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.games[:1] == ["new"]:
        if len(args.games) != 2 or not args.seats or args.seed is None:
            ap.error("new takes one GAME, --seats and --seed")
        options = {k: json.loads(v) for k, _, v in (o.partition("=") for o in args.option)}
        record = play(args.games[1], args.seats.split(","), args.seed, options)
        path = args.folder / f"{stem(record)}.txt"
        path.write_text(playthrough(record), encoding="utf-8")
        print(path.name, len(record["actions"]), "actions")
        return
    wanted = set(args.games)
    for path in sorted(args.folder.glob("*.txt")):
        record = read_record(path)
        if wanted and freetrader.game(record["game"]).spec.name not in wanted:
            continue
        if args.bots:
            if "bots" not in record:
                raise SystemExit(f"{path.name}: its record names no bots; remake it with 'new'")
            record = play(record["game"], record["bots"], record["seed"], record.get("options"))
        path.write_text(playthrough(record), encoding="utf-8")
        print(path.name, len(record["actions"]), "actions")


if __name__ == "__main__":
    main()
