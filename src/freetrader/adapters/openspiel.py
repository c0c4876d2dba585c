"""Every registered game as an OpenSpiel Python game.

>>> from freetrader.adapters import openspiel as fos
>>> game = fos.load_game("contraband", players=3, end="turns", turn_limit=10)
>>> game.get_type().short_name
'freetrader_contraband'

Each game registers as ``freetrader_<name>`` (dashes become underscores):
``register_all()`` runs on import for the games registered then;
``register(name)`` adds one registered later (``load_game`` does it for you).
Parameters: ``players`` (seats; default the game's minimum), ``seed`` (the
seed of the first game; each ``new_initial_state()`` draws the next one) and
every game option by its name.

- Chance is *sampled*: our dealing and shuffling happen inside ``apply``
  from the state's own RNG, so the game type is ``SAMPLED_STOCHASTIC`` and
  there are no chance nodes. Cloning a state clones its RNG.
- Actions are the encoder's indices (``encoders``): ``num_distinct_actions``
  is its action space size and ``action_to_string`` gives the notation.
- Utilities are ``rewards="win"`` of the other adapters: zero-sum, +1/-1 with
  two seats, terminal only. Games that can be played solo are general-sum.
- Observation tensors are the encoder's vector; observation strings are the
  seat's view as JSON without the public log, information-state strings the
  view with it (the log is the public history); with ``private_info=NONE``
  the spectator's view (``view(None)``).
- ``resample_from_infostate`` is ``determinize``, so OpenSpiel's IS-MCTS runs.
- Outcome-sampling MCCFR runs as it is (tested on a two-turn Contraband):
  it samples chance, and each ``new_initial_state()`` is a new deal.
  Full-tree CFR needs explicit chance nodes, which sampled dealing does not
  offer; that would need a per-game enumeration of deals, not done.
"""

from __future__ import annotations

import json
import random
from typing import Any

from freetrader._extras import missing_extra

try:
    import numpy as np
    import pyspiel
except ImportError as _exc:
    raise missing_extra("openspiel", "freetrader.adapters.openspiel", _exc) from _exc

from freetrader.core import Action, Game, State
from freetrader.core import game as find_game
from freetrader.core import games as registered_games

from ._session import final_rewards, reward_range
from .encoders import Encoder, encoder_for, seat_view

__all__ = ["short_name", "register", "register_all", "load_game", "DEFAULT_MAX_GAME_LENGTH"]

#: OpenSpiel needs a bound on the number of actions; our games bound themselves by options (turn limits).
DEFAULT_MAX_GAME_LENGTH = 100_000
_PREFIX = "freetrader_"
_REGISTERED: dict[str, str] = {}


def short_name(game: Game | str) -> str:
    g = find_game(game) if isinstance(game, str) else game
    return _PREFIX + g.spec.name.replace("-", "_")


class _Observer:
    """OpenSpiel's PyObserver interface over ``seat_view`` and the encoder."""

    def __init__(self, encoder: Encoder, iig_obs_type: Any) -> None:
        self.encoder = encoder
        perfect = iig_obs_type is not None and iig_obs_type.perfect_recall
        self.events = bool(perfect)
        self.public = iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.tensor = np.zeros(encoder.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state: FreetraderSpielState, player: int) -> dict[str, Any]:
        s = state.ft_state
        if self.public:
            v = s.view(None)
            return v if self.events else {k: x for k, x in v.items() if k != "events"}
        return seat_view(s, player, events=self.events)

    def set_from(self, state: FreetraderSpielState, player: int) -> None:
        # Encoders do not read the log, so the tensor is the same with or without it.
        self.tensor[:] = self.encoder.encode_state(state.ft_state, None if self.public else player)

    def string_from(self, state: FreetraderSpielState, player: int) -> str:
        return json.dumps(self._view(state, player), sort_keys=True, separators=(",", ":"))


class FreetraderSpielGame(pyspiel.Game):  # type: ignore[misc]
    """Base of the generated per-game classes; ``ft_game`` and ``game_type`` are set on each."""

    ft_game: Game
    game_type: Any

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        spec = self.ft_game.spec
        self.seats = spec.check_seats(int(params.get("players", spec.min_seats)))
        self.options = spec.resolve_options({o.name: params[o.name] for o in spec.options if o.name in params})
        self.encoder = encoder_for(self.ft_game, self.seats, self.options)
        self._seeds = random.Random(int(params.get("seed", 0)))
        lo, hi = reward_range(self.seats, "win")
        zero_sum = self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions,
            max_chance_outcomes=0,
            num_players=self.seats,
            min_utility=lo,
            max_utility=hi,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=int(params.get("max_game_length", DEFAULT_MAX_GAME_LENGTH)),
        )
        super().__init__(self.game_type, info, params)

    def next_seed(self) -> int:
        return self._seeds.getrandbits(63)

    def new_initial_state(self) -> FreetraderSpielState:
        return FreetraderSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.encoder, iig_obs_type)

    def __deepcopy__(self, memo: Any) -> FreetraderSpielGame:
        return self  # states hold their game; a copied state shares it


class _Position:
    """Our state and its index cache. OpenSpiel clones a Python state by deep-copying its
    attributes; this hook makes that our cheap ``clone()``."""

    __slots__ = ("state", "at", "index")

    def __init__(self, state: State) -> None:
        self.state = state
        self.at = -1
        self.index: dict[int, Action] = {}

    def __deepcopy__(self, memo: Any) -> _Position:
        return _Position(self.state.clone())


class FreetraderSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around one of our states (``ft_state``)."""

    def __init__(self, game: FreetraderSpielGame, ft_state: State | None = None) -> None:
        super().__init__(game)
        self._game = game
        self._pos = _Position(ft_state if ft_state is not None else game.ft_game.new_state(
            game.seats, game.next_seed(), game.options))

    @property
    def ft_state(self) -> State:
        return self._pos.state

    def _legal(self) -> dict[int, Action]:
        pos = self._pos
        s = pos.state
        if pos.at != s.action_count:
            legal = s.legal_actions()
            pos.index = dict(zip(self._game.encoder.legal_indices(legal), legal, strict=True))
            pos.at = s.action_count
        return pos.index

    def current_player(self) -> int:
        who = self.ft_state.to_act
        return pyspiel.PlayerId.TERMINAL if who is None else who

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.ft_state.to_act:
            return []
        return sorted(self._legal())

    def _apply_action(self, action: int) -> None:
        found = self._legal().get(action)
        if found is None:
            raise pyspiel.SpielError(f"action {action} is not legal in {self.ft_state!r}")
        self.ft_state.apply_unchecked(found)

    def _action_to_string(self, player: int, action: int) -> str:
        found = self._legal().get(action) if player == self.ft_state.to_act else None
        return str(found) if found is not None else self._game.encoder.describe(action)

    def is_terminal(self) -> bool:
        return self.ft_state.is_over

    def returns(self) -> list[float]:
        s = self.ft_state
        return final_rewards(s, "win") if s.is_over else [0.0] * s.seats

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> FreetraderSpielState:
        """A state ``player_id`` cannot tell from this one (``State.determinize``)."""
        seed = random.Random(self._game.next_seed())
        return FreetraderSpielState(self._game, self.ft_state.determinize(player_id, seed))

    def __str__(self) -> str:
        return json.dumps(self.ft_state.to_json(), sort_keys=True, separators=(",", ":"))


def _game_type(g: Game) -> Any:
    spec = g.spec
    solo = spec.min_seats < 2
    params: dict[str, Any] = {"players": spec.min_seats, "seed": 0, "max_game_length": DEFAULT_MAX_GAME_LENGTH}
    for o in spec.options:
        if isinstance(o.default, (bool, int, float, str)):
            params[o.name] = o.default
    return pyspiel.GameType(
        short_name=short_name(g),
        long_name=f"Freetrader {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        if spec.chance else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if spec.hidden_information else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM if solo else pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_seats,
        min_num_players=spec.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def register(game: Game | str) -> str:
    """Register one of our games with OpenSpiel (once); returns its OpenSpiel short name."""
    g = find_game(game) if isinstance(game, str) else game
    name = short_name(g)
    if _REGISTERED.get(name) == g.slug:
        return name
    if name in _REGISTERED or name in pyspiel.registered_names():
        raise ValueError(f"OpenSpiel already has a game called {name!r}")
    cls = type(f"{name.title().replace('_', '')}Game", (FreetraderSpielGame,), {"ft_game": g, "game_type": _game_type(g)})
    pyspiel.register_game(cls.game_type, cls)
    _REGISTERED[name] = g.slug
    return name


def register_all() -> list[str]:
    """Register every game registered with Freetrader now; returns the OpenSpiel names."""
    return [register(n) for n in registered_games()]


def load_game(game: Game | str, **params: Any) -> Any:
    """``pyspiel.load_game`` for one of our games, registering it first: ``load_game("contraband", players=4)``."""
    return pyspiel.load_game(register(game), params)


register_all()
