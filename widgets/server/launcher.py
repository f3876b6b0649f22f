"""The *golflab* card in JupyterLab's launcher, through ``jupyter-server-proxy``.

``pip install "golflab[apps]"`` brings ``jupyter-server-proxy`` and registers :func:`setup` under its
``jupyter_serverproxy_servers`` entry point (pyproject), so any JupyterLab in that environment (on a
laptop, or a JupyterHub user's server) shows a *golflab* card. The card opens the landing page in a
new browser tab; the first click starts ``golflab serve`` for this user behind the Jupyter server's
own sign-in, under ``<base_url>golflab/``, with no preheated kernel (one person's server: each app
starts its kernel when opened). The class store is the one ``golflab serve`` uses: the environment's
``GOLFLAB_DATABASE_URL``, else ``golflab.db`` in the user's data directory.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .app_files import LANDING

#: The proxy's name: the path under the Jupyter server's base URL, and the card's title.
NAME = "golflab"
#: The card's icon.
ICON = Path(__file__).resolve().parent / "static" / "golflab.svg"
#: Seconds the proxy waits for ``golflab serve`` to answer (its first start imports Voila and the engine).
START_TIMEOUT = 120


def setup() -> dict:
    """jupyter-server-proxy's settings for the golflab apps (its ``ServerProcess`` traits)."""
    return {
        "command": [sys.executable, "-m", "golflab_widgets.server", "serve", "--port={port}", "--ip=127.0.0.1",
                    "--preheat=none", "--base-url={base_url}" + NAME + "/"],
        "absolute_url": True,  # golflab serve serves under the proxied path itself (its links, cookies, sockets)
        "timeout": START_TIMEOUT,
        "new_browser_tab": True,
        "launcher_entry": {"title": NAME, "icon_path": str(ICON), "path_info": f"{NAME}/{LANDING}",
                           "category": "Notebook"},
    }


__all__ = ["ICON", "NAME", "START_TIMEOUT", "setup"]
