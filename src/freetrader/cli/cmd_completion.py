"""``freetrader completion bash|zsh|tcsh``: the shell's tab completion script, made from the parser (shtab)."""

from __future__ import annotations

import argparse
from typing import Any

from .commands import register_command

SHELLS = ("bash", "zsh", "tcsh")


def _configure(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("shell", choices=SHELLS,
                    help="the shell; e.g. bash: freetrader completion bash > ~/.local/share/bash-completion/"
                         "completions/freetrader")


def _run(args: argparse.Namespace, console: Any) -> int:
    import shtab

    from .app import build_parser

    print(shtab.complete(build_parser(), shell=args.shell), end="")
    return 0


register_command("completion", "print the shell completion script (bash, zsh or tcsh)", _configure, _run)
