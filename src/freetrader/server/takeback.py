"""Which actions may be taken back: those that revealed nothing hidden and drew nothing by chance.

The rule is generic over the game protocol. Let ``before`` be the state
before the action ``a`` and ``after`` the state after it. ``a`` is undoable
when all of these hold:

1. **No chance:** ``after.rng.state == before.rng.state`` (nothing was
   shuffled, dealt or rolled).
2. **No seat learnt anything privately:** for every seat, the part of its
   view that differs from the spectator's (its hand, the luggage it holds,
   the cards it has looked at) holds nothing after ``a`` that it did not
   hold before (losing sight of something, as when luggage is passed on
   unseen, is no gain). A card
   drawn from a face-down pile into a hand, luggage shown to the seat that
   accepts it, a card passed to a neighbour: each changes some seat's
   private part. (The legal actions are left out: the conformance suite
   checks that they follow from what the seat may see.)
3. **No hidden zone was touched:** no field of the full state that some
   seat cannot see changed. A field counts as hidden when a determinization
   of ``before`` for some seat gives it another value; ``a`` changing such a
   field moved cards that someone could not see (searched luggage going
   face up, the top card of a face-down deck turned over) and is refused.
4. **The views agree on determinizations:** applying ``a`` to
   determinizations of ``before`` for each seat gives that seat the same view
   as the real game did (this only catches what 1 to 3 cannot: an action that
   reads hidden cards and publishes a number computed from them without
   moving anything).

Rules 1 and 2 compare the real states only. Rule 3 classifies fields by
determinizing, but what it asks of a sample is weaker than the old rule's:
not that the sample's hidden cards differ where the action looked (a 1-in-6
chance of a coincidence when a card is drawn), but that the whole field
differs somewhere, which for a deck or a hand of two or more distinct
unseen cards fails to happen in ``SAMPLES`` samples per seat with a chance
below 2**-SAMPLES. A field whose every determinization equals the truth is
one the seat can deduce, so touching it reveals nothing. The samples use
fixed seeds, so the answer is the same on every server and after a restart.

In Contraband, ``claim <article>`` and ``declare`` are undoable (they only
add to the public declaration); ``search`` (reveals the luggage to all),
``accept`` (shows the luggage to the new holder), ``discard`` (draws the top
card of the pack into the holder's hand) and anything that reshuffles are not.
"""

from __future__ import annotations

from typing import Any

from freetrader.core import Rng, State, derive_seed

__all__ = ["SAMPLES", "VIEW_SAMPLES", "undoable"]

#: Determinizations per seat for rule 3, and how many of them rule 4 plays the action on.
SAMPLES = 8
VIEW_SAMPLES = 2

_NOT_PRIVATE = frozenset({"legal"})


def _private(mine: Any, public: Any) -> Any:
    """The parts of a seat's view that the spectator's view lacks or shows otherwise."""
    if isinstance(mine, dict) and isinstance(public, dict):
        return {k: _private(v, public.get(k)) for k, v in mine.items()
                if k not in _NOT_PRIVATE and v != public.get(k)}
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        return {i: _private(v, w) for i, (v, w) in enumerate(zip(mine, public, strict=True)) if v != w}
    return mine


def _gained(after: Any, before: Any) -> bool:
    """Whether ``after`` holds something ``before`` did not (what was dropped, say a hand passed on, is no gain)."""
    if isinstance(after, dict) and isinstance(before, dict):
        return any(k not in before or _gained(v, before[k]) for k, v in after.items())
    return bool(after != before)


def _private_parts(state: State) -> list[Any]:
    public = state.view(None, events=False)
    return [_private(state.view(seat, events=False), public) for seat in range(state.seats)]


def _samples(state: State, seat: int) -> list[State]:
    out = []
    for k in range(SAMPLES):
        # Fixed seeds (not the game's: nothing here needs its key) so every server gives the same answer.
        sample = state.determinize(seat, Rng(derive_seed(state.action_count, 7919 * (seat + 1) + k)))
        sample._legal_cache = None  # the true state's legal actions may not hold in the sample
        out.append(sample)
    return out


def undoable(before: State, action: str, after: State) -> bool:
    """Whether ``action`` (played in ``before``, giving ``after``) may be taken back."""
    if before.rng.state != after.rng.state:
        return False
    if any(_gained(a, b) for a, b in zip(_private_parts(after), _private_parts(before), strict=True)):
        return False
    old, new = before._game_json(), after._game_json()
    changed = {k for k in old if old[k] != new.get(k)} | (set(new) - set(old))
    samples = {seat: _samples(before, seat) for seat in range(before.seats)}
    direct = [k for k in changed if k in old and hasattr(before, k)]  # fields kept under their JSON name
    other = [k for k in changed if k in old and not hasattr(before, k)]
    for states in samples.values():
        for sample in states:
            if any(getattr(sample, k) != getattr(before, k) for k in direct):
                return False  # the action changed a field this seat cannot see
            if other:
                got = sample._game_json()
                if any(got.get(k) != old[k] for k in other):
                    return False
    n_events = before.event_count
    new_events = after.events_since(n_events)
    for seat, states in samples.items():
        expected = after.view(seat, events=False)
        for sample in states[:VIEW_SAMPLES]:
            try:
                sample.apply(action)
            except Exception:  # noqa: BLE001 - any failure means the action depended on hidden cards
                return False
            if sample.view(seat, events=False) != expected or sample.events_since(n_events) != new_events:
                return False
    return True
