"""``python -m golflab_widgets``: the ``golflab`` command (``golflab_widgets.command``)."""

import sys

from .command import main

if __name__ == "__main__":
    sys.exit(main())
