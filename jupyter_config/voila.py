"""Voila settings that need Python (``voila.json`` in the repository root holds the rest).

Voila reads this file because ``binder/start`` puts ``jupyter_config/`` on the Jupyter config
path, for ``make app`` (standalone Voila), Binder (Voila as a Jupyter server extension) and the
browser tests alike.

* Closing a page shuts its kernel down. Voila's page sends the shutdown on unload with the value
  of the ``_xsrf`` cookie, but Voila's render handler never issues that cookie, so the server
  refused it ("403 ... '_xsrf' argument missing", voila-dashboards/voila#1458) and the kernel
  lived on. The prelaunch hook below issues the cookie with each rendered page; the XSRF check
  stays on. Culling (``MappingKernelManager`` in ``voila.json``) removes what a crashed tab leaves.
* No request leaves the server, so the apps work offline: the ``golflab`` template
  (``data/voila/templates/golflab``) is Voila's lab template without what it loads from public
  CDNs (Font Awesome, Mermaid), and no page loads MathJax (the apps typeset no math; as a server
  extension Voila would fetch it from cdnjs, the standalone Voila does not).
"""

import os
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


# Voila looks for templates on the Jupyter data path only.
_data_path = [p for p in os.environ.get("JUPYTER_PATH", "").split(os.pathsep) if p]
if str(JUPYTER_DATA) not in _data_path:
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(JUPYTER_DATA), *_data_path])

c = get_config()  # noqa: F821 (traitlets provides it when it runs this file)
c.VoilaConfiguration.template = "golflab"
c.VoilaConfiguration.prelaunch_hook = issue_xsrf_cookie
c.VoilaConfiguration.page_config_hook = without_mathjax
