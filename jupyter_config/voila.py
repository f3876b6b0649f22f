"""Voila settings that need Python (``voila.json`` in the repository root holds the rest).

Voila reads this file because ``binder/start`` puts ``jupyter_config/`` on the Jupyter config
path, for ``make app`` (standalone Voila), Binder (Voila as a Jupyter server extension) and the
browser tests alike.

* Closing a page shuts its kernel down. Voila's page sends the shutdown on unload with the value
  of the ``_xsrf`` cookie, but Voila's render handler never issues that cookie, so the server
  refused it ("403 ... '_xsrf' argument missing", voila-dashboards/voila#1458) and the kernel
  lived on. The prelaunch hook below issues the cookie with each rendered page; the XSRF check
  stays on. Culling (``MappingKernelManager`` in ``voila.json``) removes what a crashed tab leaves.
  ``golflab-voila`` (``make app``) preheats kernels, which Voila allows with no prelaunch hook and
  no progressive rendering: it turns both off and its page handler issues the cookie instead
  (``golflab_widgets.server.signin.GolflabVoila``; ``--GolflabVoila.pool_size=0`` keeps this file's way).
* No request leaves the server, so the apps work offline: the ``golflab`` template
  (``data/voila/templates/golflab``) is Voila's lab template without what it loads from public
  CDNs (Font Awesome, Mermaid), and no page loads MathJax (the apps typeset no math; as a server
  extension Voila would fetch it from cdnjs, the standalone Voila does not). The app listing
  (``/voila/tree``) is served from the same template without Voila's Font Awesome 4 stylesheet
  from cdn.jsdelivr.net (``tree.html`` there).
* The app listing is the server-drawn one (``classic_tree`` in ``voila.json``): its links are in
  the page. Voila's JupyterLab listing asks for the folder once (its next poll is 24 days later),
  and in one CI run on a busy machine it stayed empty for two minutes.
* Kernels connect over Unix sockets (``KernelManager.transport``), so many kernels starting at
  once cannot collide on a TCP port.
* The server starts without the warning "The websocket_ping_timeout (90000) cannot be longer than
  the websocket_ping_interval (30000)" (see ``MillisecondPings``).
"""

import logging
import os
import sys
import tempfile
from pathlib import Path

JUPYTER_DATA = Path(__file__).resolve().parent / "data"


def issue_xsrf_cookie(request, notebook, cwd):
    """Voila prelaunch hook: reading tornado's ``xsrf_token`` sets the ``_xsrf`` cookie on the
    response when the browser has none. ``request`` is None while Voila pre-renders a pooled kernel
    (a pooled page gets the cookie from any other page the browser opened on the server)."""
    if request is not None:
        request.xsrf_token  # noqa: B018 (the property sets the cookie)
    return notebook


def without_mathjax(page_config, **_context):
    """Voila page-config hook: the page loads no MathJax (Voila's front end skips it when both
    settings are null, as the standalone Voila leaves them)."""
    page_config["fullMathjaxUrl"] = page_config["mathjaxConfig"] = None
    return page_config


class MillisecondPings(logging.Filter):
    """Drops tornado's warning about jupyter_server's kernel-websocket keepalive, which is not wrong.

    jupyter_server's ``WebSocketMixin`` pings every browser tab's kernel websocket every 30000 ms
    and closes it after 90000 ms without a pong (``ws_ping_interval``, ``ws_ping_timeout``: it
    closes at a ping when the last pong is older than the timeout, so the timeout must exceed the
    interval). It hands tornado the same two numbers under the names tornado reads as *seconds*;
    tornado 6.5 refuses a timeout longer than the interval and warns once per server
    (jupyter-server/jupyter_server#1612). No setting satisfies both readings, and tornado's own
    pinger, 30000 s apart, never runs in a session, so the keepalive that matters is untouched and
    only this one message is dropped.
    """

    PREFIX = "The websocket_ping_timeout ("

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.PREFIX)


_tornado_log = logging.getLogger("tornado.general")
if not any(isinstance(f, MillisecondPings) for f in _tornado_log.filters):
    _tornado_log.addFilter(MillisecondPings())

# Voila looks for templates on the Jupyter data path only.
_data_path = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
if str(JUPYTER_DATA) not in _data_path:
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(JUPYTER_DATA), *_data_path])

c = get_config()  # noqa: F821 (traitlets provides it when it runs this file)
c.VoilaConfiguration.template = "golflab"
c.VoilaConfiguration.prelaunch_hook = issue_xsrf_cookie
c.VoilaConfiguration.page_config_hook = without_mathjax
# Kernels talk to Voila over Unix sockets, not TCP ports. ``golflab-voila`` starts about twenty
# preheated kernels at once, and a port picked for one kernel (free when picked) can be taken
# before that kernel binds it, by any other connection on the machine: the kernel dies with
# "Address already in use" and its page says "Running ..." for good (a fresh-clone test run met
# it on index.ipynb). A socket file named after the kernel's own connection file cannot collide.
# Its path (Voila keeps connection files in a new folder of the temporary directory:
# "<tmp>/voila_<8>/kernel-<uuid>-ipc-<n>") must fit a Unix socket's 107 characters: with a
# temporary directory too long for that, the kernels keep TCP.
# ZeroMQ has no ipc transport on Windows: kernels keep TCP there.
if sys.platform != "win32" and len(os.path.join(tempfile.gettempdir(), "voila_00000000",
                                           f"kernel-{'0' * 36}-ipc-99999")) <= 107:
    c.KernelManager.transport = "ipc"
