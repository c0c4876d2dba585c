"""Which actions may be taken back: those that revealed nothing hidden and drew nothing by chance.

The rule is generic over the game protocol. Let ``before`` be the state
before the action ``a`` and ``after`` the state after it. ``a`` is undoable
when both hold:

1. **No chance:** ``after.rng.state == before.rng.state`` (nothing was
   shuffled, dealt or rolled).
2. **Nothing revealed, to anyone:** for every seat ``t`` (the mover
   included), applying ``a`` to several determinizations of ``before`` from
   ``t``'s side gives ``t`` the same view as the real game did. A
   determinization resamples exactly what ``t`` cannot see, so if ``a``
   showed ``t`` anything hidden (the cards in searched luggage, the luggage a
   player accepts), some sample shows ``t`` something else. If ``a`` cannot
   even be applied to a sample, it depended on hidden information: not
   undoable.

In Contraband, ``claim <article>`` and ``declare`` are undoable (they only
add to the public declaration); ``search`` (reveals the luggage to all),
``accept`` (shows the luggage to the new holder) and anything that reshuffles
the pack are not. The samples use fixed seeds, so the answer is the same on
every server and after a restart.
"""

from __future__ import annotations

from freetrader.core import Rng, State, derive_seed

__all__ = ["SAMPLES", "undoable"]

#: Determinizations tried per seat.
SAMPLES = 8


def undoable(before: State, action: str, after: State, samples: int = SAMPLES) -> bool:
    """Whether ``action`` (played in ``before``, giving ``after``) may be taken back.

    ``samples`` determinizations per seat; the server uses one for the quick
    hint it shows with every position and ``SAMPLES`` when a take-back is asked.
    """
    if before.rng.state != after.rng.state:
        return False
    for seat in range(before.seats):
        expected = after.view(seat)
        for k in range(samples):
            sample = before.determinize(seat, Rng(derive_seed(before.seed, 7919 * (seat + 1) + k)))
            # determinize() keeps the true state's cached legal actions, which are stale when ``seat``
            # is not the one to act (its hidden cards were resampled): recompute them.
            if hasattr(sample, "_legal_cache"):
                sample._legal_cache = None
            try:
                sample.apply(action)
            except Exception:  # noqa: BLE001 - any failure means the action depended on hidden cards
                return False
            if sample.view(seat) != expected:
                return False
    return True
