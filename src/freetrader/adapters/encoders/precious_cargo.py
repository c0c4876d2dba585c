"""Moved to ``freetrader.games.precious_cargo.encoder``; this name stays an alias of it so that old imports work."""

import sys

from freetrader.games.precious_cargo import encoder as _moved

sys.modules[__name__] = _moved
