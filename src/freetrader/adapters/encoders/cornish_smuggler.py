"""Moved to ``freetrader.games.cornish_smuggler.encoder``; this name stays an alias of it so that old imports work."""

import sys

from freetrader.games.cornish_smuggler import encoder as _moved

sys.modules[__name__] = _moved
