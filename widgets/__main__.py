"""``python -m golflab_widgets``: the ``golflab`` command (``golflab_widgets.server.command``)."""

import sys

from .server.command import main

if __name__ == "__main__":
    sys.exit(main())
