"""``python -m freetrader``: the same as the ``freetrader`` command."""

import sys

from freetrader.cli import main

if __name__ == "__main__":
    sys.exit(main())
