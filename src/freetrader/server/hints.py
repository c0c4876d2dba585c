"""The coach's endpoints: the review of a finished game, and hints at a table that allows them.

- ``GET /api/tables/{id}/review``: the review (``bots.review``) of a finished
  game. The first request starts it in a worker process and answers 202
  ``{"status": "running"}``; later ones answer the same until it is stored
  with the table (``ft_reviews``), then 200 ``{"status": "done", "review":
  ...}`` from the database, so a second visit computes nothing. Reviews run
  one at a time in their own worker (``REVIEW_SECONDS`` each at most);
  at most ``MAX_WAITING`` wait, more are refused (429). They wait in the
  pool's fair queue (addresses take turns), and one address may have at most
  ``PER_ADDRESS`` reviews and hints computed or waiting at once (429 beyond):
  five long reviews from one address no longer keep everyone else's waiting. The game is over and
  its record given out, so the review may replay it; each decision is still
  judged from a determinization for its seat (``review_record``).
- ``POST /api/tables/{id}/hint`` ``{"token": ...}``: at a table created with
  ``hints: true`` (shown to everyone in the table's info), the move the
  search prefers for the token's seat now and a sentence on its expected
  gain. The server draws the seat's determinization and hands only that to
  a worker process (as for bots), so the hint knows what the seat knows. One
  hint per position and seat is computed; asking again gives the same one.

Budgets come from ``FREETRADER_REVIEW_ITERS`` (worlds per decision, default
``bots.review.DEFAULT_WORLDS``: 16, each candidate move played in every world
with a short heuristic rollout) and ``FREETRADER_HINT_ITERS`` (IS-MCTS
iterations, default 300), capped at 2000. ``benchmarks/bench_review.py``
times the review at these defaults.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from freetrader.bots.review import DEFAULT_WORLDS
from freetrader.core import FreetraderError, Rng, State, seed_number

from .errors import ApiError, bad_request, conflict, forbidden
from .limits import TooMany
from .models import TokenBody
from .workers import Deadline, WorkerLost, WorkerPool

__all__ = ["Coach", "install_coach", "review_job", "hint_job", "MAX_WAITING", "PER_ADDRESS", "REVIEW_SECONDS",
           "HINT_SECONDS"]

log = logging.getLogger("freetrader.server")

#: Reviews waiting for the review worker at most (one runs at a time); more are refused with 429.
MAX_WAITING = 4
#: Reviews and hints one address may have computed or waiting at once; more are refused with 429.
PER_ADDRESS = 2
#: The longest a review may run (seconds) before it is abandoned (its worker is replaced).
REVIEW_SECONDS = 600.0
#: The longest a hint may take (seconds).
HINT_SECONDS = 20.0
_MAX_ITERS = 2000


def _iters(name: str, default: int) -> int:
    try:
        value = int(os.environ.get(name, default))
    except ValueError:
        log.warning("%s is not a whole number; using %d", name, default)
        return default
    return max(1, min(_MAX_ITERS, value))


# -- run in the worker processes ------------------------------------------------------------
def review_job(record: dict[str, Any], iters: int) -> dict[str, Any]:
    """The review of a finished game's record as JSON, or ``{"error": ...}``."""
    from freetrader.bots.review import review_record

    try:
        return review_record(record, iters=iters, workers=1, seed=0).to_json()
    except FreetraderError as exc:
        return {"error": str(exc)}


def hint_job(world: State, seat: int, iters: int, seed: int) -> dict[str, Any]:
    """The hint for ``seat`` in ``world``, a determinization for that seat drawn by the server."""
    from freetrader.bots.review import hint

    return hint(world, seat, iters=iters, seed=seed).to_json()


# -- in the server ------------------------------------------------------------------------------
class Coach:
    """The review and hint workers and their bookkeeping."""

    def __init__(self) -> None:
        self.review_iters = _iters("FREETRADER_REVIEW_ITERS", DEFAULT_WORLDS)
        self.hint_iters = _iters("FREETRADER_HINT_ITERS", 300)
        self.reviews = WorkerPool(1, "review")  # forked at the first review, not before
        self.hints = WorkerPool(1, "hint")
        self.running: dict[str, asyncio.Task[None]] = {}
        self.failed: dict[str, str] = {}
        self.asking: Counter[str] = Counter()  # address -> its reviews and hints computed or waiting
        self._hint_cache: dict[tuple[str, int, int], dict[str, Any]] = {}
        self._hinting: set[tuple[str, int]] = set()

    def close(self) -> None:
        for task in self.running.values():
            task.cancel()
        self.reviews.close()
        self.hints.close()

    def _take_turn(self, who: str) -> None:
        """Count one more review or hint of ``who``'s, or refuse it (429) over ``PER_ADDRESS``."""
        if self.asking[who] >= PER_ADDRESS:
            raise TooMany(f"{self.asking[who]} reviews or hints asked from this address are being computed, the "
                          "most one address may have; wait for them")
        self.asking[who] += 1

    def _turn_done(self, who: str) -> None:
        self.asking[who] -= 1
        if self.asking[who] <= 0:
            del self.asking[who]

    async def _review(self, lobby: Any, table_id: str, record: dict[str, Any], who: str) -> None:
        try:
            out = await self.reviews.run(review_job, record, self.review_iters, timeout=REVIEW_SECONDS,
                                         who=who, table=table_id)
            if "error" in out:
                self.failed[table_id] = str(out["error"])
                return
            await lobby.db(lobby.store.save_review, table_id, out)
        except Deadline:
            self.failed[table_id] = f"the review did not finish within {REVIEW_SECONDS:g} s"
        except WorkerLost:
            self.failed[table_id] = "the review worker stopped; ask again"
        except ApiError as exc:
            self.failed[table_id] = exc.message
        finally:
            self.running.pop(table_id, None)
            self._turn_done(who)

    async def review(self, lobby: Any, table_id: str, who: str = "") -> JSONResponse:
        table = await lobby.get(table_id)
        if not table.state.is_over:
            raise conflict(f"the game at table {table.id} is not over; it is reviewed when it ends")
        stored = await lobby.db(lobby.store.load_review, table.id)
        if stored is not None:
            return JSONResponse({"status": "done", "review": stored})
        if table.id in self.failed:
            return JSONResponse({"status": "failed", "error": self.failed.pop(table.id)})
        if table.id not in self.running:
            if len(self.running) >= MAX_WAITING + 1:
                raise TooMany(f"{len(self.running)} reviews are running or waiting, the most this server "
                              "takes; try again in a few minutes")
            self._take_turn(who)
            task = asyncio.get_running_loop().create_task(self._review(lobby, table.id, table.state.record(), who))
            self.running[table.id] = task
        return JSONResponse({"status": "running", "iterations": self.review_iters}, status_code=202)

    async def hint(self, lobby: Any, table_id: str, token: str, who: str = "") -> dict[str, Any]:
        table = await lobby.get(table_id)
        if not table.row.settings.get("hints"):
            raise forbidden(f"hints are off at table {table.id}; a table created with \"hints\": true offers them")
        seat = table.seat_of(token)
        if seat is None:
            raise bad_request("a seat token is required; the join answer gives one")
        state = table.state
        if state.is_over:
            raise conflict(f"the game at table {table.id} is over; there is nothing left to hint")
        if state.to_act != seat:
            raise conflict("it is not your turn; a hint is for the decision in front of you")
        seq = table.seq
        key = (table.id, seq, seat)
        cached = self._hint_cache.get(key)
        if cached is not None:
            return {"seq": seq, "hint": cached}
        if (table.id, seat) in self._hinting:
            raise TooMany("a hint for this seat is being computed; wait for it")
        self._take_turn(who)
        self._hinting.add((table.id, seat))
        try:
            # the worker gets the seat's determinization only, as a bot does
            world = state.determinize(seat, Rng(seed_number(table.seed, 9000 + 7 * seq + seat)))
            seed = seed_number(table.seed, 9500 + 7 * seq + seat)
            out = await self.hints.run(hint_job, world, seat, self.hint_iters, seed, timeout=HINT_SECONDS,
                                       who=who, table=table.id)
        except Deadline:
            raise ApiError(503, f"the hint took longer than {HINT_SECONDS:g} s; try again") from None
        except WorkerLost:
            raise ApiError(503, "the hint worker stopped; try again in a moment") from None
        finally:
            self._hinting.discard((table.id, seat))
            self._turn_done(who)
        if len(self._hint_cache) > 1000:
            self._hint_cache.clear()
        self._hint_cache[key] = out
        return {"seq": seq, "hint": out}


def install_coach(app: FastAPI, lobby: Any, errors: dict[int | str, dict[str, Any]]) -> Coach:
    """Add the review and hint endpoints to ``app``; ``lobby`` is the app's (live) lobby."""
    coach = Coach()

    @app.get("/api/tables/{table_id}/review", responses=errors,
             summary="The review of a finished game: 202 while it is computed, then stored and returned")
    async def table_review(table_id: str, request: Request) -> JSONResponse:
        return await coach.review(lobby, table_id, _address(request))

    @app.post("/api/tables/{table_id}/hint", responses=errors,
              summary="At a table with hints on: the move the search prefers for your seat now, and why")
    async def table_hint(table_id: str, body: TokenBody, request: Request) -> dict[str, Any]:
        return await coach.hint(lobby, table_id, body.token, _address(request))

    return coach


def _address(request: Request) -> str:
    return request.client.host if request.client else ""
