"""``python -m golflab_widgets.server``: the ``golflab`` command (``command.main``), for a process
started by path to this environment's Python (the JupyterLab launcher's proxy)."""

from .command import main

raise SystemExit(main())
