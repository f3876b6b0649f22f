"""Jupyter server settings for Binder, where Voila runs as a server extension.

``binder/start`` puts ``jupyter_config/`` on the Jupyter config path, so the server Binder starts
reads this file. It applies the kernel culling of ``voila.json`` (whose ``MappingKernelManager``
section only the standalone ``voila`` reads), so both ways of serving the apps cull alike:
a kernel with no open page or notebook tab, idle for ``cull_idle_timeout`` seconds, is shut down
at the next check (every ``cull_interval`` seconds). Kernels with a connected tab
(``cull_connected`` false) or running code (``cull_busy`` false) are never culled.
"""

import json
from pathlib import Path

VOILA_JSON = Path(__file__).resolve().parents[1] / "voila.json"

c = get_config()  # noqa: F821 (traitlets provides it when it runs this file)
for name, value in json.loads(VOILA_JSON.read_text())["MappingKernelManager"].items():
    setattr(c.MappingKernelManager, name, value)
