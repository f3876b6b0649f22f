"""The Tornado server side of golflab-voila, and what a kernel asks of it.

``signin`` (``GolflabVoila``: Voila with the sign-in pages; the ``golflab-voila`` command),
``request_socket`` (Voila's request socket, mended for preheated kernels), ``page_request`` (a
preheated kernel asking for its page's request) and ``account_links`` (where the sign-in pages
are, for the server and the apps); ``command`` (the ``golflab`` command; ``python -m
golflab_widgets.server``), ``serving`` (``golflab serve``), ``app_files`` (the apps' files) and
``launcher`` (the golflab card in JupyterLab's launcher, through jupyter-server-proxy).
"""
