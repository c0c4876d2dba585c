"""Moved to ``freetrader.games.contraband.encoder``; this name stays an alias of it so that old imports work."""

import sys

from freetrader.games.contraband import encoder as _moved

sys.modules[__name__] = _moved
