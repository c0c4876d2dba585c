"""Extra subcommands, each in its own module ``freetrader/cli/cmd_<name>.py``.

Such a module calls ``register_command`` at import; ``build_parser`` imports
every ``cmd_*`` module and adds what they registered. The module must import
its heavy libraries (web server, plotting, Ray) inside ``run``, so that
``freetrader --help`` stays fast and works without the optional extras.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Command", "register_command", "extra_commands"]


@dataclass(frozen=True)
class Command:
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace, Any], int]  # (args, rich console) -> exit code


_COMMANDS: dict[str, Command] = {}


def register_command(name: str, help: str, configure: Callable[[argparse.ArgumentParser], None],
                     run: Callable[[argparse.Namespace, Any], int]) -> None:
    _COMMANDS[name] = Command(name, help, configure, run)


def extra_commands() -> list[Command]:
    pkg = importlib.import_module("freetrader.cli")
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("cmd_"):
            importlib.import_module(f"freetrader.cli.{info.name}")
    return [_COMMANDS[n] for n in sorted(_COMMANDS)]
