"""Moved to ``freetrader.games.merchants_cove.encoder``; this name stays an alias of it so that old imports work."""

import sys

from freetrader.games.merchants_cove import encoder as _moved

sys.modules[__name__] = _moved
