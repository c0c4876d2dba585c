"""The ``freetrader`` command line: games, rules, play, simulate, replay, state.

Games draw their views through renderers: ``register_renderer("mygame", fn)``
with ``fn(view, names) -> rich renderable``; unregistered games get a generic
table of the view's fields.
"""

from .app import CliError, build_parser, main
from .render import print_state, register_renderer, render_generic, render_view, renderer_for

__all__ = [
    "CliError",
    "build_parser",
    "main",
    "print_state",
    "register_renderer",
    "render_generic",
    "render_view",
    "renderer_for",
]
