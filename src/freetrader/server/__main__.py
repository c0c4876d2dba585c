"""``python -m freetrader.server [--host H] [--port P] [--db URL]``: the same as ``freetrader serve``."""

import sys

from freetrader.cli import main

sys.exit(main(["serve", *sys.argv[1:]]))
