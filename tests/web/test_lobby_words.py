"""Every option and bot of every game has the words the lobby form shows a player (drawing.toml [lobby]).

The browser test reads them too, but a new option without words should fail here, in a second, not only
in a Chromium run.
"""

from __future__ import annotations

import pytest

import freetrader
from freetrader.core.registry import load_part


@pytest.mark.parametrize("game", freetrader.games())
def test_every_option_has_a_label_a_sentence_and_words_for_its_choices(game: str) -> None:
    g = freetrader.game(game)
    words = load_part(g, "web").components()["drawing"]["lobby"]["options"]
    for o in g.spec.options:
        assert o.name in words, f"{game}: option {o.name} has no [lobby.options.{o.name}] in drawing.toml"
        entry = words[o.name]
        assert entry["label"] and entry["label"] != o.name and entry["text"], f"{game} {o.name}"
        if o.kind == "choice" and "choices" in entry:
            assert set(entry["choices"]) == {str(c) for c in o.choices}, f"{game} {o.name}: {entry['choices']}"
