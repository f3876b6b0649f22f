"""Plotly's front end, loaded once per page however many charts the page draws, and light.

Every plotly ``FigureWidget`` carries plotly's front-end module (``widgetbundle.js``, 5 MB) in
its own model, so a page with four charts shipped and parsed it four times, and again for each
redrawn chart. Under Voila a ``Chart`` (``charts.py``) carries ``stub(...)`` instead, a few lines
that import a module from the server under ``ROUTE``: the browser loads it once per page (one
module per URL) and keeps it in its HTTP cache (the URL names the version).

Which module: a chart whose traces are all of ``LIGHT_TRACES`` (bars, scatter: every explorer's)
is drawn by ``RENDER`` with plotly.js's basic bundle (``static/plotly-basic.min.js``, 1.2 MB,
MIT, from npm: ``static/README.md``). plotly's own module spent 1.5 to 2.2 s of the page's main
thread evaluating itself on a busy 2-core machine before the first chart was drawn (every
trace type, maps included); the basic bundle takes about 0.2 s. Any other chart (a heatmap,
say), or every chart when the basic bundle is not the plotly.js version the installed plotly
was built for (``light_bundle()`` is None), uses plotly's own module from the same route.
Outside Voila (JupyterLab, a plain notebook) the charts keep plotly's own module, since no
route may be there.

The route is served by ``golflab-voila`` (``handlers``) and, when Voila runs as a Jupyter server
extension (Binder, JupyterHub), by this module as a server extension too (enabled in
``jupyter_config/jupyter_server_config.py``).
"""

from __future__ import annotations

import functools
import os
import re
from importlib.metadata import version
from pathlib import Path
from typing import Iterable

#: The folder of the served modules, under the server's base URL.
ROUTE_DIR = "golflab/plotly"
#: plotly's own widget module (every trace type) and where it is served.
BUNDLE = "widgetbundle.js"
ROUTE = f"{ROUTE_DIR}/{BUNDLE}"
#: plotly.js's basic bundle, shipped beside this file, and the trace types it draws.
LIGHT = "plotly-basic.min.js"
LIGHT_PATH = Path(__file__).with_name("static") / LIGHT
LIGHT_TRACES = frozenset({"bar", "pie", "scatter"})
LICENSE_PATH = LIGHT_PATH.with_name("LICENSE-plotly.js")

#: The ES module of a chart drawn with the basic bundle: ``__URL__`` is replaced by the bundle's URL
#: (``stub``). It draws the model's traces, layout and config as plotly's own view does (typed
#: arrays and ``_undefined_`` decoded as its deserializer does, 360 px high unless told, no wider
#: than the screen and without the toolbar on a touch screen), once: a
#: ``Chart`` is never updated, ``ChartSlot`` replaces it whole. The bundle is fetched and parsed at
#: once (``modulepreload``) but evaluated, and each chart drawn, only when the page is idle: the
#: page's controls are drawn first (evaluating it at once made them usable 0.4 s later).
RENDER = """\
const url = __URL__;
if (![...document.querySelectorAll('link[rel=modulepreload]')].some(link => link.href === url)) {
  document.head.append(Object.assign(document.createElement('link'), {rel: 'modulepreload', href: url}));
}
const idle = () => new Promise(done => window.requestIdleCallback
  ? window.requestIdleCallback(done, {timeout: 1000}) : setTimeout(done, 50));
// the basic bundle (UMD) sets globalThis.Plotly
const plotly = () => idle().then(() => import(url)).then(() => globalThis.Plotly);
const TYPES = {int8: Int8Array, int16: Int16Array, int32: Int32Array, uint8: Uint8Array,
               uint16: Uint16Array, uint32: Uint32Array, float32: Float32Array, float64: Float64Array};
function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v === '_undefined_') return undefined;
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v)) return v;
  const raw = v.buffer ?? v.value;
  if (raw !== undefined && 'dtype' in v && 'shape' in v && TYPES[v.dtype]) {
    const view = ArrayBuffer.isView(raw) ? raw : new DataView(raw);
    const bytes = view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);
    return new TYPES[v.dtype](bytes);
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, decode(x)]));
}
export default {
  async render({ model, el }) {
    const Plotly = await plotly();
    await idle();
    const layout = decode(model.get('_widget_layout')) || {};
    if (!layout.height) layout.height = 360;
    // on a phone the chart narrows to the screen (again when it turns), without plotly's toolbar
    // over its title on a touch screen
    const wanted = layout.width;
    const fitted = () => wanted && Math.min(wanted, Math.max(260, window.innerWidth - 24));
    if (wanted) layout.width = fitted();
    const touch = window.matchMedia && window.matchMedia('(pointer: coarse)').matches;
    const config = {...(decode(model.get('_config')) || {}), editSelection: false,
                    ...(touch ? {displayModeBar: false} : {})};
    await Plotly.newPlot(el, decode(model.get('_widget_data')) || [], layout, config);
    const fit = () => {
      if (wanted && el.layout && el.layout.width !== fitted()) Plotly.relayout(el, {width: fitted()});
    };
    window.addEventListener('resize', fit);
    return () => { window.removeEventListener('resize', fit); Plotly.purge(el); };
  },
};
"""

#: The stub's first lines: the page's base URL (from its ``jupyter-config-data``).
_BASE = (
    "const config = document.getElementById('jupyter-config-data');\n"
    "let base = (config && JSON.parse(config.textContent).baseUrl) || '/';\n"
    "if (!base.endsWith('/')) base += '/';\n"
)


def bundle_dir() -> Path:
    """The folder of plotly's installed ``widgetbundle.js`` (found without importing plotly)."""
    from importlib.util import find_spec

    spec = find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("plotly is not installed: the explorers' charts need it (pip install plotly)")
    return Path(next(iter(spec.submodule_search_locations))) / "package_data"


def plotlyjs_version(path: Path) -> str | None:
    """The plotly.js version named in the first lines of the bundle at ``path`` (None if none)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(400)
    except OSError:
        return None
    found = re.search(r"plotly\.js(?: \([^)]*\))? v(\d+\.\d+\.\d+\S*)", head)
    return found.group(1) if found else None


@functools.cache
def light_bundle() -> str | None:
    """The basic bundle's plotly.js version when it is shipped and is the version the installed
    plotly was built for (its ``plotly.min.js``), else None (every chart then uses plotly's module)."""
    light = plotlyjs_version(LIGHT_PATH)
    return light if light is not None and light == plotlyjs_version(bundle_dir() / "plotly.min.js") else None


def uses_light(trace_types: Iterable[str]) -> bool:
    """Whether a chart of these trace types is drawn with the basic bundle."""
    return light_bundle() is not None and set(trace_types) <= LIGHT_TRACES


@functools.cache
def stub(light: bool = False) -> str:
    """The ES module a ``Chart`` ships. ``light``: it draws the chart with the basic bundle
    (``RENDER``; only when ``light_bundle()``); else it imports plotly's own module from ``ROUTE``
    and exports its widget. Either URL is under the page's base URL and names the version."""
    if light:
        if light_bundle() is None:
            raise RuntimeError("plotly.js's basic bundle is missing or not the installed plotly's version")
        url = f"new URL(base + '{ROUTE_DIR}/{LIGHT}?v={light_bundle()}', document.baseURI).href"
        return _BASE + RENDER.replace("__URL__", url)
    return (
        _BASE
        + f"const url = new URL(base + '{ROUTE}?v={version('plotly')}', document.baseURI).href;\n"
        + "const plotly = await import(url);\n"
        + "export default plotly.default;\n"
    )


def in_voila(environ=None) -> bool:
    """True in a kernel that Voila started for a page (Voila sets ``SERVER_SOFTWARE``) or ahead of
    one (``VOILA_PREHEAT``: the request's ``SERVER_SOFTWARE`` comes later, the charts may be drawn
    before)."""
    environ = os.environ if environ is None else environ
    return environ.get("SERVER_SOFTWARE", "").startswith("voila/") or environ.get("VOILA_PREHEAT") == "True"


def handlers(base_url: str = "/") -> list:
    """The tornado routes serving plotly's module and the basic bundle (only those two files)
    under ``base_url``."""
    import tornado.web
    from jupyter_server.utils import url_path_join

    return [(url_path_join(base_url, ROUTE_DIR, f"({re.escape(name)})"), tornado.web.StaticFileHandler,
             {"path": str(folder)}) for name, folder in ((BUNDLE, bundle_dir()), (LIGHT, LIGHT_PATH.parent))]


def _jupyter_server_extension_points() -> list:
    return [{"module": __name__}]


def _load_jupyter_server_extension(serverapp) -> None:
    serverapp.web_app.add_handlers(".*$", handlers(serverapp.web_app.settings.get("base_url", "/")))


__all__ = ["BUNDLE", "LICENSE_PATH", "LIGHT", "LIGHT_PATH", "LIGHT_TRACES", "RENDER", "ROUTE", "ROUTE_DIR",
           "bundle_dir", "handlers", "in_voila", "light_bundle", "plotlyjs_version", "stub", "uses_light"]
