"""The game protocol: ``Game`` builds states, ``State`` is one position.

A game subclasses both. The base class owns the public verbs (checked
``apply``, history, events, records, JSON) and calls small hooks that the
game implements:

- ``_legal()``: the legal actions of the seat to act (a tuple, cached here);
- ``_apply(action)``: change the state; may call ``_event(text)``;
- ``_copy_into(other)``: copy the game's own fields for ``clone()``;
- ``_game_json()`` / ``_load_game_json(d)``: the game's fields as JSON;
- ``_view(seat)``, ``_determinize(seat, seed)``, ``_scores()``, ``_prompt()``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from operator import attrgetter
from typing import TYPE_CHECKING, Any, ClassVar

from .data import content_hash
from .errors import BadOption, BadRecord, IllegalAction, InvalidNotation
from .fields import refuse_unknown_keys
from .rng import Rng, Seed, check_seed, make_rng, seed_from
from .spec import GameSpec

__all__ = ["Action", "Game", "State"]

#: The keys ``State.to_json()`` writes (it leaves out the record's ``data`` hash: a save is the position itself).
_SAVED_KEYS = ("game", "format", "options", "seats", "seed", "actions", "rng", "events", "state")

# History and events are cons lists (item, rest): clone() shares them in O(1).
_Cons = tuple[Any, Any] | None


def _walk(cons: _Cons) -> list[Any]:
    out: list[Any] = []
    while cons is not None:
        out.append(cons[0])
        cons = cons[1]
    out.reverse()
    return out


class _Flat(list):  # type: ignore[type-arg]
    """A cons list written out flat for pickling (``State.__getstate__``)."""


def _cons(items: list[Any]) -> _Cons:
    cons: _Cons = None
    for item in items:
        cons = (item, cons)
    return cons


class Action:
    """Base of every action: a frozen, hashable value whose ``str`` is its notation."""

    __slots__ = ()


class Game:
    """A registered game: its spec, how to parse its notation, how to build states."""

    spec: GameSpec
    state_class: ClassVar[type[State]]

    def __init__(self, spec: GameSpec, parse_action: Callable[[str], Action]) -> None:
        self.spec = spec
        self._parse = parse_action

    @property
    def slug(self) -> str:
        return self.spec.slug

    @property
    def data_hash(self) -> str | None:
        """Content hash of the component data this game loaded, shipped or from a data pack (``core.data``)."""
        return content_hash(type(self).__module__)

    def __repr__(self) -> str:
        return f"<Game {self.spec.slug}>"

    def parse_action(self, text: str) -> Action:
        """The action a notation names (context-free); ``InvalidNotation`` if none."""
        if not isinstance(text, str):
            raise InvalidNotation(f"an action notation must be text, got {type(text).__name__}")
        return self._parse(text)

    def new_state(self, seats: int, seed: Seed = 0, options: Mapping[str, Any] | None = None) -> State:
        """The set-up state; ``seed`` is an int (SplitMix64) or ``'blake2b:<hex key>'`` (a keyed generator)."""
        seats = self.spec.check_seats(seats)
        try:
            check_seed(seed)
        except ValueError as exc:
            raise BadOption(str(exc)) from None
        opts = self.spec.resolve_options(options)
        state = self.state_class.__new__(self.state_class)
        state._init_base(self, seats, seed, opts)
        state._setup()
        return state

    def _migrate(self, data: Mapping[str, Any], fmt: int) -> State:
        """A state saved in an older format, rebuilt by replaying its own record.

        Every saved state carries its record (seed, options, actions), and the
        game is deterministic, so replaying gives the same position in today's
        format. A state edited by hand (its RNG or log no longer what its
        actions give) cannot be rebuilt that way and is refused.
        """
        from .record import replay

        state = replay(data, game=self)
        if state.rng.state != data.get("rng") or state.events != list(data.get("events", ())):
            raise BadRecord(
                f"saved state in format {fmt} (this version writes {self.state_class.state_format}) "
                "does not match a replay of its own actions, so it cannot be migrated"
            )
        return state

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state saved by ``State.to_json``; ``BadRecord`` if it is not one."""
        if not isinstance(data, Mapping):
            raise BadRecord(f"a saved state must be a JSON object, got {type(data).__name__}")
        slug = data.get("game")
        if slug != self.slug:
            raise BadRecord(f"saved state is for game {slug!r}, not {self.slug!r}")
        fmt, current = data.get("format", 1), self.state_class.state_format
        if fmt != current:
            if not isinstance(fmt, int) or isinstance(fmt, bool) or not 1 <= fmt < current:
                raise BadRecord(f"saved state format {fmt!r} is not one this version reads (1 to {current})")
            return self._migrate(data, fmt)
        refuse_unknown_keys(data, _SAVED_KEYS, "saved state")
        try:
            seats = self.spec.check_seats(data["seats"])
            opts = self.spec.resolve_options(data["options"])
            state = self.state_class.__new__(self.state_class)
            seed = data["seed"]
            state._init_base(self, seats, check_seed(seed if isinstance(seed, str) else int(seed)), opts)
            state.rng.state = int(data["rng"])
            hist: _Cons = None
            for text in data["actions"]:
                hist = (self.parse_action(text), hist)
            state._history = hist
            state._n_actions = len(data["actions"])
            ev: _Cons = None
            for text in data["events"]:
                ev = (str(text), ev)
            state._events = ev
            state._n_events = len(data["events"])
            state._load_game_json(data["state"])
        except KeyError as exc:
            raise BadRecord(f"saved state lacks the field {exc.args[0]!r}") from None
        except (TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, BadRecord):
                raise
            raise BadRecord(f"saved state for {self.slug} is malformed: {exc}") from None
        return state


class State(ABC):
    """One position of a game. Exactly one seat decides, or the game is over."""

    #: The layout of ``to_json()["state"]``; a game raises it when its fields change.
    state_format: ClassVar[int] = 1

    __slots__ = ("game", "seats", "seed", "options", "rng", "_history", "_n_actions", "_events", "_n_events", "_legal_cache")

    game: Game
    seats: int
    seed: Seed
    options: dict[str, Any]
    rng: Rng

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # A game field named like a protocol member (say ``winners``) would
        # silently replace it; refuse such a class when it is defined.
        super().__init_subclass__(**kwargs)
        protocol = {n for n in vars(State) if not n.startswith("_")}
        clash = protocol.intersection(cls.__dict__.get("__slots__", ()))
        if clash:
            raise TypeError(f"{cls.__name__} fields {sorted(clash)} would hide State members of the same name")

    # -- construction -----------------------------------------------------
    def _init_base(self, game: Game, seats: int, seed: Seed, options: dict[str, Any]) -> None:
        self.game = game
        self.seats = seats
        self.seed = seed
        self.options = options
        self.rng = make_rng(seed)
        self._history: _Cons = None
        self._n_actions = 0
        self._events: _Cons = None
        self._n_events = 0
        self._legal_cache: tuple[Action, ...] | None = None

    # -- hooks a game implements -------------------------------------------
    @abstractmethod
    def _setup(self) -> None:
        ...

    @abstractmethod
    def _legal(self) -> tuple[Action, ...]:
        ...

    @abstractmethod
    def _apply(self, action: Action) -> None:
        ...

    @abstractmethod
    def _copy_into(self, other: Any) -> None:
        ...

    @abstractmethod
    def _game_json(self) -> dict[str, Any]:
        ...

    @abstractmethod
    def _load_game_json(self, data: Mapping[str, Any]) -> None:
        ...

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        ...

    @abstractmethod
    def _determinize(self, seat: int, seed: int) -> None:
        """Resample, in place, every zone ``seat`` cannot see."""
        ...

    @abstractmethod
    def _scores(self) -> list[float]:
        ...

    def _prompt(self) -> str:
        return ""

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The seat that decides now; ``None`` when the game is over."""

    # -- public protocol ---------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.to_act is None

    @property
    def prompt(self) -> str:
        """A short description of the pending decision."""
        return "" if self.is_over else self._prompt()

    def legal_actions(self) -> list[Action]:
        """The only source of legality; empty when the game is over."""
        cache = self._legal_cache
        if cache is None:
            cache = self._legal_cache = () if self.is_over else self._legal()
        return list(cache)

    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Apply a legal action (or its notation); ``IllegalAction`` otherwise, state unchanged.

        The error lists the legal actions, which only the seat to act may see.
        Callers acting for a known seat (a server, a bot host) pass ``seat``: if
        it is not that seat's turn the error then names whose turn it is and
        nothing else.
        """
        if seat is not None and seat != self.to_act:
            if self.to_act is None:
                raise IllegalAction(f"{action} is not legal: the game is over")
            raise IllegalAction(f"it is seat {self.to_act}'s turn ({self._prompt()}), not seat {seat}'s")
        cache = self._legal_cache
        if cache is None:
            cache = self._legal_cache = () if self.is_over else self._legal()
        if isinstance(action, str):
            action = self._match_notation(action, cache)
        else:
            for legal in cache:
                if legal is action:
                    break
            else:
                if action not in cache:
                    raise self._illegal(action, cache)
        self._apply(action)
        self._legal_cache = None
        self._history = (action, self._history)
        self._n_actions += 1

    def apply_unchecked(self, action: Action) -> None:
        """Apply without the legality check: only for search over ``legal_actions()``."""
        self._apply(action)
        self._legal_cache = None
        self._history = (action, self._history)
        self._n_actions += 1

    def _match_notation(self, text: str, cache: tuple[Action, ...]) -> Action:
        norm = " ".join(text.split()).lower()
        for legal in cache:
            if str(legal) == norm:
                return legal
        action = self.game.parse_action(norm)  # raises InvalidNotation on bad text
        raise self._illegal(action, cache)

    def _illegal(self, action: Any, cache: tuple[Action, ...]) -> IllegalAction:
        if self.to_act is None:
            return IllegalAction(f"{action} is not legal: the game is over")
        legal = ", ".join(str(a) for a in cache)
        return IllegalAction(
            f"{action} is not legal now: seat {self.to_act} must {self._prompt() or 'decide'}; legal: {legal}"
        )

    def __getstate__(self) -> tuple[Any, dict[str, Any]]:
        """Pickled with history and events flat: as cons lists they nest one tuple per action, and pickle
        recurses once per level, so a state past about 1,000 actions could not be sent to a bot worker
        (RecursionError; a Precious Cargo table stopped at its bot's turn)."""
        got: Any = super().__getstate__()  # (None, slots) for a slotted class
        extra, slots = got[0], dict(got[1])
        for name in ("_history", "_events"):
            if name in slots:
                slots[name] = _Flat(_walk(slots[name]))
        return extra, slots

    def __setstate__(self, state: tuple[Any, dict[str, Any]]) -> None:
        extra, slots = state
        for name, value in {**(extra or {}), **slots}.items():
            setattr(self, name, _cons(value) if type(value) is _Flat else value)

    def clone(self) -> State:
        other = self.__class__.__new__(self.__class__)
        other.game = self.game
        other.seats = self.seats
        other.seed = self.seed
        other.options = self.options
        other.rng = self.rng.copy()
        other._history = self._history
        other._n_actions = self._n_actions
        other._events = self._events
        other._n_events = self._n_events
        other._legal_cache = self._legal_cache
        self._copy_into(other)
        return other

    def scores(self) -> list[float]:
        """Each seat's score now (final once ``is_over``)."""
        return self._scores()

    @property
    def cut(self) -> bool:
        """Stopped by a safety cap (an explicit option, not a rule) before any end of the rulebook.

        Such a game has no winner: a cap is a simulation's guard, never a way to win.
        """
        return self.is_over and self._cut_by_cap()

    def _cut_by_cap(self) -> bool:
        """Whether the game's safety cap ended it; a game without one never is."""
        return False

    def winners(self) -> list[int]:
        """Seats with the best score (several on a tie); empty while the game goes on or if it was ``cut``."""
        if not self.is_over or self.cut:
            return []
        s = self._scores()
        best = max(s)
        return [i for i, v in enumerate(s) if v == best]

    def view(self, seat: int | None, events: bool = True) -> dict[str, Any]:
        """JSON-able dict of exactly what ``seat`` may see (``None``: a spectator).

        ``events=False`` leaves out the public log (its cost grows with the
        game), for callers that follow the log themselves (``events_since``).
        """
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats):
            raise IllegalAction(f"no seat {seat!r}: seats are numbered 0 to {self.seats - 1} (a spectator has no seat)")
        v: dict[str, Any] = {
            "game": self.game.slug,
            "seat": seat,
            "seats": self.seats,
            "to_act": self.to_act,
            "prompt": self.prompt,
            "is_over": self.is_over,
            "actions_taken": self._n_actions,
        }
        v.update(self._view(seat))
        if seat is not None and seat == self.to_act:
            v["legal"] = [str(a) for a in self.legal_actions()]
        if events:
            v["events"] = self.events
        if self.is_over:
            v["scores"] = self.scores()
            v["winners"] = self.winners()
        return v

    def determinize(self, seat: int, rng: Any) -> State:
        """A full state that ``seat`` cannot tell from this one, hidden zones resampled, RNG reseeded.

        The new RNG is always a fresh SplitMix64 drawn from ``rng``, never the
        true one (keyed or not): a bot that samples the future learns nothing of it.
        """
        other = self.clone()
        other._legal_cache = None  # legal actions of a seat that is not ``seat`` may differ in the sample
        other._determinize(seat, seed_from(rng))
        other.rng = Rng(seed_from(rng))
        return other

    @property
    def events(self) -> list[str]:
        """The public log, oldest first."""
        return _walk(self._events)

    @property
    def event_count(self) -> int:
        return self._n_events

    def events_since(self, n: int) -> list[str]:
        """Events after the first ``n`` (cost proportional to how many are new)."""
        out: list[str] = []
        cons = self._events
        for _ in range(max(0, self._n_events - n)):
            assert cons is not None
            out.append(cons[0])
            cons = cons[1]
        out.reverse()
        return out

    def _event(self, text: str) -> None:
        self._events = (text, self._events)
        self._n_events += 1

    @property
    def history(self) -> list[Action]:
        return _walk(self._history)

    def iter_history(self) -> Iterator[Action]:
        return iter(self.history)

    if TYPE_CHECKING:
        @property
        def action_count(self) -> int:
            """The number of actions applied so far."""
    else:
        # a property over a C getter, not over a method: the RL adapters read it several times a step
        # (their caches are per position), and a Python frame per read was a measurable part of a step
        action_count = property(attrgetter("_n_actions"), doc="The number of actions applied so far.")

    def record(self) -> dict[str, Any]:
        """JSON-able record: replaying it rebuilds this state.

        ``data`` is the content hash of the components it was played with
        (``Game.data_hash``), when the game reads data files.
        """
        rec: dict[str, Any] = {
            "game": self.game.slug,
            "options": dict(self.options),
            "seats": self.seats,
            "seed": self.seed,
            "actions": [str(a) for a in self.history],
        }
        data = self.game.data_hash
        if data is not None:
            rec["data"] = data
        return rec

    def to_json(self) -> dict[str, Any]:
        d = self.record()
        d.pop("data", None)  # a saved state is the position itself (its fingerprint must not change)
        if self.state_format != 1:
            d["format"] = self.state_format
        d["rng"] = self.rng.state
        d["events"] = self.events
        d["state"] = self._game_json()
        return d

    def __repr__(self) -> str:
        who = "over" if self.is_over else f"seat {self.to_act} to act"
        return f"<{self.game.slug} state: {self._n_actions} actions, {who}>"
