"""What every worker process the project starts does first (simulation, review and server pools)."""

from __future__ import annotations

import signal

__all__ = ["leave_signals_to_parent"]


def leave_signals_to_parent() -> None:
    """Ctrl-C reaches the whole process group, but stopping is the parent's to do: ignore SIGINT; and die
    quietly at SIGTERM, not in a handler the parent had installed when it forked this process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
