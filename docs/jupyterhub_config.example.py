"""golflab's part of a JupyterHub configuration (docs/classroom.md, "JupyterHub + PostgreSQL").

Load it from the hub's own ``jupyterhub_config.py``, which adds the site's authenticator::

    c = get_config()
    load_subconfig("/srv/golflab/docs/jupyterhub_config.example.py")
    c.JupyterHub.authenticator_class = "pam"          # or an OAuthenticator, LDAP...
    c.Authenticator.allowed_users = {"ann", "bob", "mrs_lee"}

and start the hub from golflab's virtualenv (it runs each learner's ``jupyterhub-singleuser``
from there) with, in its environment:

* ``GOLFLAB_DATABASE_URL``: the class store, e.g. ``postgresql+psycopg://golflab:PASSWORD@127.0.0.1/golflab``;
* ``GOLFLAB_HUB_ADMINS``: the hub's admins, comma-separated; they are teachers in golflab;
* ``GOLFLAB_TEACHERS``: further teachers, comma-separated.

Every ``GOLFLAB_*`` variable of the hub's environment reaches every learner's server and
kernels. The test suite's hub (``tests/support/services.py``) loads this same file and swaps in a dummy
authenticator, a spawner that needs no system users, free ports and a temporary directory.
"""

import os
import sys
from pathlib import Path

GOLFLAB = Path(__file__).resolve().parents[1]  # the checkout: notebooks/, voila.json, jupyter_config/
SINGLEUSER = Path(sys.executable).with_name("jupyterhub-singleuser")  # the hub's virtualenv = golflab's


def names(variable: str) -> set[str]:
    """The comma-separated names in an environment variable of the hub."""
    return {name.strip() for name in os.environ.get(variable, "").split(",") if name.strip()}


def teachers(spawner) -> str:
    """GOLFLAB_TEACHERS for a learner's server: the named teachers, the configured admins, and the
    user themself when the hub made them an admin later (admin page)."""
    found = names("GOLFLAB_TEACHERS") | names("GOLFLAB_HUB_ADMINS")
    if spawner.user.admin:
        found.add(spawner.user.name)
    return ",".join(sorted(found))


c = get_config()  # noqa: F821 (JupyterHub provides it when it runs this file)
c.Authenticator.admin_users = names("GOLFLAB_HUB_ADMINS")

# Each learner's Jupyter server serves the checkout, opens the golflab landing page in Voila
# (JupyterLab stays at /user/<name>/lab) and starts in the checkout through binder/start, as
# `make app` and Binder do: Voila reads voila.json from its working directory, and binder/start
# puts jupyter_config/ on the config path (kernel culling, closed pages end their kernels,
# nothing fetched from the internet).
c.Spawner.notebook_dir = str(GOLFLAB)
c.Spawner.default_url = "/voila/render/notebooks/index.ipynb"
c.Spawner.cmd = ["/usr/bin/env", f"--chdir={GOLFLAB}", str(GOLFLAB / "binder" / "start"), str(SINGLEUSER)]

# The learner is the hub's user (JUPYTERHUB_USER, set by the hub): no second sign-in in golflab.
c.Spawner.environment = {
    **{key: value for key, value in os.environ.items() if key.startswith("GOLFLAB_")},
    "GOLFLAB_TEACHERS": teachers,
}
