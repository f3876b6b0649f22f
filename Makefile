# Two commands for a newcomer on a fresh machine with only Python, pip and apt:
#   make app    sets up .venv and opens the Voila apps on http://localhost:8866
#   make test   sets up .venv (and Debian's Chromium and PostgreSQL, and configurable-http-proxy from npm,
#               for the browser, store and JupyterHub tests), lints and runs every test
PYTHON   ?= python3
VENV     ?= .venv
PORT     ?= 8866
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
CHP      := $(VENV)/cphp/node_modules/.bin/configurable-http-proxy
CHP_SPEC := configurable-http-proxy@~5.1.0
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: app test lint venv bench clean postgresql

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[test]"
	# the lab extensions, where JupyterLab finds them (an editable install skips pyproject's data-files)
	mkdir -p $(VENV)/share/jupyter/labextensions && cp -R jupyter_config/labextensions/golflab-rise-console $(VENV)/share/jupyter/labextensions/
	$(BIN)/python -m golflab.kernel  # compile the simulation kernel once, now (numba caches it)
	touch $(STAMP)

venv: $(STAMP)

# The browser tests drive Debian's Chromium (never a downloaded browser build).
$(CHROMIUM):
	$(SUDO) apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium

# The store tests start Debian's PostgreSQL themselves (tests/services.py), whatever its version.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq postgresql; }

# The JupyterHub tests' proxy, from npm into the virtualenv (5.1 runs on Debian's Node.js 18).
$(CHP): | $(STAMP)
	command -v npm >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs npm; }
	npm install --silent --no-audit --no-fund --prefix $(VENV)/cphp $(CHP_SPEC)

# binder/start adds jupyter_config/ (closed pages end their kernels, nothing fetched from the
# internet) to the Jupyter config path, as on Binder; voila.json applies from this directory.
# golflab-voila is Voila with the sign-in page (/golflab/signin) and one class store, golflab.db
# here unless GOLFLAB_DATABASE_URL says otherwise (docs/classroom.md).
app: $(STAMP)
	@echo "Serving the golflab apps: open http://localhost:$(PORT)/voila/render/index.ipynb (the table: play.ipynb; sign in: /golflab/signin)"
	binder/start $(BIN)/golflab-voila notebooks/ --port=$(PORT)

# The engine, AI, coach and simulation tests run a second time on the Python reference alone
# (GOLFLAB_KERNEL=0; the tests of the compiled code itself skip, saying why): 2 min 22 s on two busy cores.
REFERENCE_TESTS := $(addprefix tests/test_,game ai analysis cards coach ev grading expert simulation \
	simulation_fingerprint strategy scoring rules rule_model random_invariants quality_targets golden \
	game_from_position round_adjustments kernel_switch legal_parity levels)
test: $(STAMP) $(CHROMIUM) postgresql $(CHP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest --nbval --nbval-sanitize-with tests/nbval_sanitize.cfg \
		--doctest-glob=README.md README.md tests notebooks
	GOLFLAB_KERNEL=0 $(BIN)/python -m pytest $(addsuffix .py,$(REFERENCE_TESTS))

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	for b in benchmarks/*.py; do $(BIN)/python $$b; done

clean:
	rm -rf $(VENV) .pytest_cache test-artifacts
