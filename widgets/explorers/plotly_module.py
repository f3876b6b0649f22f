"""Plotly's widget module, loaded once per page however many charts the page draws.

Every plotly ``FigureWidget`` carries plotly's front-end module (``widgetbundle.js``, 5 MB) in
its own model, so a page with four charts shipped and parsed it four times, and again for each
redrawn chart. Under Voila a ``Chart`` (``charts.py``) carries ``STUB`` instead, a few lines that
import the module from the server at ``ROUTE``: the browser parses it once per page (one module
per URL) and keeps it in its HTTP cache (the URL names plotly's version). Outside Voila (JupyterLab,
a plain notebook) the charts keep plotly's own module, since no route may be there.

The route is served by ``golflab-voila`` (``handlers``) and, when Voila runs as a Jupyter server
extension (Binder, JupyterHub), by this module as a server extension too (enabled in
``jupyter_config/jupyter_server_config.py``).
"""

from __future__ import annotations

import os
from importlib.metadata import version
from pathlib import Path

#: Where the module is served, under the server's base URL.
ROUTE = "golflab/plotly/widgetbundle.js"
BUNDLE = "widgetbundle.js"


def bundle_dir() -> Path:
    """The folder of plotly's installed ``widgetbundle.js`` (found without importing plotly)."""
    from importlib.util import find_spec

    spec = find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("plotly is not installed: the explorers' charts need it (pip install plotly)")
    return Path(next(iter(spec.submodule_search_locations))) / "package_data"


def stub() -> str:
    """The ES module a ``Chart`` ships: it imports plotly's module from ``ROUTE`` (under the page's
    base URL, read from the page's ``jupyter-config-data``) and exports its widget."""
    return (
        "const config = document.getElementById('jupyter-config-data');\n"
        "let base = (config && JSON.parse(config.textContent).baseUrl) || '/';\n"
        "if (!base.endsWith('/')) base += '/';\n"
        f"const url = new URL(base + '{ROUTE}?v={version('plotly')}', document.baseURI).href;\n"
        "const plotly = await import(url);\n"
        "export default plotly.default;\n"
    )


def in_voila(environ=None) -> bool:
    """True in a kernel that Voila started for a page (Voila sets ``SERVER_SOFTWARE``) or ahead of
    one (``VOILA_PREHEAT``: the request's ``SERVER_SOFTWARE`` comes later, the charts may be drawn
    before)."""
    environ = os.environ if environ is None else environ
    return environ.get("SERVER_SOFTWARE", "").startswith("voila/") or environ.get("VOILA_PREHEAT") == "True"


def handlers(base_url: str = "/") -> list:
    """The tornado route serving plotly's module (only that file) under ``base_url``."""
    import tornado.web
    from jupyter_server.utils import url_path_join

    return [(url_path_join(base_url, ROUTE.rsplit("/", 1)[0], f"({BUNDLE})"), tornado.web.StaticFileHandler,
             {"path": str(bundle_dir())})]


def _jupyter_server_extension_points() -> list:
    return [{"module": __name__}]


def _load_jupyter_server_extension(serverapp) -> None:
    serverapp.web_app.add_handlers(".*$", handlers(serverapp.web_app.settings.get("base_url", "/")))


__all__ = ["BUNDLE", "ROUTE", "bundle_dir", "handlers", "in_voila", "stub"]
