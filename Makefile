# Two commands for a newcomer on a fresh machine with only Python, pip and apt:
#   make app    sets up .venv and opens the Voila apps on http://localhost:8866
#   make test   sets up .venv (and Debian's Chromium and PostgreSQL, and configurable-http-proxy and axe-core
#               from npm, for the browser, store, JupyterHub and accessibility tests), lints and runs every test
PYTHON   ?= python3
VENV     ?= .venv
PORT     ?= 8866
BIN      := $(VENV)/bin
APPS     := $(VENV)/.installed-apps
TESTS    := $(VENV)/.installed-test
UV       := $(BIN)/uv
CHROMIUM := /usr/bin/chromium
CHP      := $(VENV)/cphp/node_modules/.bin/configurable-http-proxy
CHP_SPEC := configurable-http-proxy@~5.1.0
AXE      := $(VENV)/axe/node_modules/axe-core/axe.min.js
AXE_SPEC := axe-core@~4.14.1
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: app test lint venv bench clean postgresql

# The virtualenv, with uv (from PyPI) to install into it: the test extras take about 20 s with uv,
# about 100 s with pip.
$(UV):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip uv

# golflab, editable, with an extra ($(1): apps or test), and the lab extensions where JupyterLab finds
# them (an editable install skips pyproject's data-files)
define install
	$(UV) pip install --quiet --python $(BIN)/python -e ".[$(1)]"
	mkdir -p $(VENV)/share/jupyter/labextensions && cp -R jupyter_config/labextensions/golflab-rise-console $(VENV)/share/jupyter/labextensions/
endef

# The apps alone (make app), with the simulation kernel compiled now (numba caches it), so no learner waits.
$(APPS): pyproject.toml | $(UV)
	$(call install,apps)
	$(BIN)/python -m golflab.kernel
	touch $@

# Everything the tests need; tools/test_lanes.py compiles the kernel while the reference pass runs.
$(TESTS): pyproject.toml | $(UV)
	$(call install,test)
	touch $@

venv: $(TESTS)

# The browser tests drive Debian's Chromium (never a downloaded browser build).
$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium

# The store tests start Debian's PostgreSQL themselves (tests/support/services.py), whatever its version.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq postgresql; }

# The JupyterHub tests' proxy, from npm into the virtualenv (5.1 runs on Debian's Node.js 18).
$(CHP): | $(TESTS)
	command -v npm >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs npm; }
	npm install --silent --no-audit --no-fund --prefix $(VENV)/cphp $(CHP_SPEC)

# The accessibility tests' checker (tests/browser/test_a11y.py injects it into every app), from npm.
$(AXE): | $(TESTS)
	command -v npm >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs npm; }
	npm install --silent --no-audit --no-fund --prefix $(VENV)/axe $(AXE_SPEC)

# binder/start adds jupyter_config/ (closed pages end their kernels, nothing fetched from the
# internet) to the Jupyter config path, as on Binder; voila.json applies from this directory.
# golflab-voila is Voila with the sign-in page (/golflab/signin) and one class store, golflab.db
# here unless GOLFLAB_DATABASE_URL says otherwise (docs/classroom.md).
app: $(APPS)
	@echo "Serving the golflab apps: open http://localhost:$(PORT)/voila/render/index.ipynb (the table: play.ipynb; sign in: /golflab/signin)"
	binder/start $(BIN)/golflab-voila notebooks/ --port=$(PORT)

# ruff, the layer contracts (lint-imports), then every test (tools/test_lanes.py): the README's doctests, the
# engine, AI, widget, notebook (nbval) and browser tests on three pytest-xdist workers, the longest files first
# (tests/durations.json); beside them the engine, AI, coach and simulation tests again on the Python reference
# alone (GOLFLAB_KERNEL=0). Each lane's log: test-artifacts/lane-<name>.log.
test: $(TESTS) $(CHROMIUM) postgresql $(CHP) $(AXE)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python tools/test_lanes.py

# ruff, and the layers of docs/architecture.md checked by import-linter (pyproject's [tool.importlinter])
lint: $(TESTS)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: $(TESTS)
	for b in benchmarks/*.py; do $(BIN)/python $$b; done

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
