"""What each START home's player does in Cornish Smuggler: where it buys, where it sells, what Customs take.

    nice python scripts/cornish_homes.py --seats 5 -n 200 --seed 31

The turn-position tables of ``cornish_sweep.py --by-start`` say which home wins; this says why. Games are
played as the sweep plays them (the same deals, ``derive_seed(seed, i)``, the First Player rotated, bots
cycled from the First Player), on the shipped data or on a data pack (``$FREETRADER_DATA``). Per home,
averaged over the games in which a seat drafted it: win share, score, pieces bought at each Merchant,
sales at each town, and the pieces Customs seized from it (counted against the seat that bought the piece).
Everything is read from the game's own events, which every seat sees.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter, defaultdict

MERCHANTS = ("roscoff", "guernsey", "ireland")  # goods.toml lists them in map.toml's order


def tally(seats: int, n: int, seed: int, bots: list[str]) -> dict[str, Counter[str]]:
    """Per home: games, wins, score, ``buy@<merchant>``, ``sell@<town>`` and ``seized`` counts, summed."""
    import freetrader
    from freetrader.bots import decide, make_bot
    from freetrader.core import Rng, derive_seed
    from freetrader.games.cornish_smuggler import rules as R
    from freetrader.games.cornish_smuggler.components import COMPONENTS as C

    game = freetrader.game("cornish-smuggler")
    piece = {gid: i for i, gid in enumerate(R.GOODS_IDS)}
    out: dict[str, Counter[str]] = defaultdict(Counter)
    for i in range(n):
        game_seed, first = derive_seed(seed, i), i % seats
        s = game.new_state(seats, game_seed, {"first_player": first})
        players = [make_bot(bots[(p - first) % len(bots)], game, derive_seed(game_seed, p)) for p in range(seats)]
        rngs = [Rng(derive_seed(game_seed, 1000 + p)) for p in range(seats)]
        while not s.is_over and s.action_count < 5000:
            p = s.to_act
            s.apply(decide(players[p], s, p, rngs[p]))
        home = {p: C.locations[C.storehouses[s.stores[p][0]].location].id for p in range(seats)}
        winners, scores = s.winners(), s.scores()
        owner: dict[str, int] = {}
        for p in range(seats):
            out[home[p]].update(games=1, score=round(scores[p]))
            out[home[p]]["wins_x60"] += 60 // len(winners) if p in winners else 0  # ties share a win
        for e in s.events:
            if m := re.match(r"Seat (\d+) buys (g\d+)", e):
                owner[m.group(2)] = int(m.group(1))
                out[home[int(m.group(1))]]["buy@" + MERCHANTS[C.goods_start[piece[m.group(2)]]]] += 1
            elif m := re.match(r"Seat (\d+) sells g\d+ .*? in (.+?) \(size", e):
                out[home[int(m.group(1))]]["sell@" + m.group(2)] += 1
            elif (m := re.match(r"Customs seize (g\d+)", e)) and m.group(1) in owner:
                out[home[owner[m.group(1)]]]["seized"] += 1
    return out


def report(counts: dict[str, Counter[str]]) -> str:
    lines = []
    for home, c in sorted(counts.items()):
        g = c["games"]
        buys = " ".join(f"{m} {c['buy@' + m] / g:.2f}" for m in MERCHANTS)
        sells = ", ".join(f"{k[5:]} {v / g:.2f}" for k, v in c.most_common() if k.startswith("sell@") and v / g >= 0.05)
        lines.append(f"{home:11s} {g:4d} games  won {c['wins_x60'] / 60 / g:6.1%}  score {c['score'] / g:5.1f}  "
                     f"seized {c['seized'] / g:.2f}  bought: {buys}  sold: {sells}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("-n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--bots", default="heuristic", help="bot specs, comma-separated, cycled from the First Player")
    args = ap.parse_args(argv)
    if not 2 <= args.seats <= 5:
        ap.error(f"--seats {args.seats}: Cornish Smuggler takes 2 to 5 seats")
    print(report(tally(args.seats, args.n, args.seed, args.bots.split(","))))


if __name__ == "__main__":
    main()
