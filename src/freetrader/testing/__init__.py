"""The conformance suite every registered game must pass (shipped with the package)."""

from .conformance import (
    ZoneTally,
    check_clone_independent,
    check_every_legal_action_applies,
    check_game,
    check_hidden_zones_resampled,
    check_illegal_rejected,
    check_json_round_trip,
    check_notation_round_trip,
    check_playout,
    check_record_replays,
    check_state,
    check_views,
    hidden_zones,
    random_playout,
)

__all__ = [
    "ZoneTally",
    "check_clone_independent",
    "check_every_legal_action_applies",
    "check_game",
    "check_hidden_zones_resampled",
    "check_illegal_rejected",
    "check_json_round_trip",
    "check_notation_round_trip",
    "check_playout",
    "check_record_replays",
    "check_state",
    "check_views",
    "hidden_zones",
    "random_playout",
]
