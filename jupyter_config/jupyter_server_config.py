"""Jupyter server settings for Binder, where Voila runs as a server extension.

``binder/start`` puts ``jupyter_config/`` on the Jupyter config path, so the server Binder starts
reads this file. It applies the kernel culling of ``voila.json`` (whose ``MappingKernelManager``
section only the standalone ``voila`` reads), so both ways of serving the apps cull alike:
a kernel with no open page or notebook tab, idle for ``cull_idle_timeout`` seconds, is shut down
at the next check (every ``cull_interval`` seconds). Kernels with a connected tab
(``cull_connected`` false) or running code (``cull_busy`` false) are never culled. It applies the
same waits too: ``VoilaExecutor`` (``iopub_timeout``: how long Voila waits for a cell's last output
after the cell ran; ``startup_timeout``: for a new kernel) and ``MappingKernelManager.kernel_info_timeout``,
raised for a class that opens its pages at once on a few shared cores (at Voila's 4 s IOPub wait a
busy kernel's output came too late and the page stayed blank; at 60 s one page of 30 in a burst
still did, on a machine loaded by other work too: now 300 s).

It serves plotly's widget module at one URL (``golflab_widgets.explorers.plotly_module``, a server
extension), so a Voila page loads it once for all its charts, as ``golflab-voila`` does.

It also adds ``labextensions/`` here to JupyterLab's extensions (see the end of this file).
"""

import json
from pathlib import Path

VOILA_JSON = Path(__file__).resolve().parents[1] / "voila.json"

c = get_config()  # noqa: F821 (traitlets provides it when it runs this file)
for section in ("MappingKernelManager", "VoilaExecutor"):
    for name, value in json.loads(VOILA_JSON.read_text())[section].items():
        setattr(c[section], name, value)

c.ServerApp.jpserver_extensions.update({"golflab_widgets.explorers.plotly_module": True})

# Lab extensions shipped in this folder, for JupyterLab and jupyterlab-rise's slideshow app alike
# (both are LabServerApps): golflab-rise-console lets the ipywidgets manager load in the slideshow,
# so the lessons' widgets are live on the slides (see its remoteEntry.js). They install with the
# package into <prefix>/share/jupyter/labextensions (pyproject data-files; `make` copies them there
# for its editable install, which setuptools gives no data-files); this path covers an editable
# install made otherwise, such as Binder's.
LABEXTENSIONS = Path(__file__).resolve().parent / "labextensions"
c.LabServerApp.extra_labextensions_path = [*c.LabServerApp.get("extra_labextensions_path", []), str(LABEXTENSIONS)]
