"""``python -m golflab``: see ``golflab.cli`` (``simulate``, ``sweep`` and ``rules``)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
