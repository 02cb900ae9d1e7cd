# make run: set everything up and start the app.  make test: set everything up and run every test.
# make test-fast: the engine, the wire, the maps, the code lab's Python, and the page's node tests: no
# server, no browser.
# make lint: check the code's style (the Python with ruff, the JavaScript with ESLint).
# make bench: the benchmarks (docs/benchmarks.md).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 5000
CHROMIUM ?= /usr/bin/chromium-headless-shell
# pytest's worker processes: most tests wait on sockets, servers and a browser more than they
# compute, so more workers than cores keep the cores busy (each has its own Chromium and servers).
WORKERS ?= 4
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-fast lint bench setup setup-dev system clean

run: setup
	$(PY) -m server --host $(HOST) --port $(PORT)

test: setup-dev system
	npm test --silent
	CHROMIUM=$(CHROMIUM) $(PY) -m pytest -n $(WORKERS) --dist load

test-fast: setup-dev
	npm test --silent
	$(PY) -m pytest -m "not slow" tests/engine tests/server/test_wire.py tests/layout tests/codelab

lint: setup-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	node_modules/.bin/eslint .

bench: setup-dev system
	CHROMIUM=$(CHROMIUM) $(PY) bench/engine.py
	$(PY) bench/skip.py
	$(PY) bench/size.py
	CHROMIUM=$(CHROMIUM) $(PY) bench/stream.py
	CHROMIUM=$(CHROMIUM) $(PY) bench/tree.py
	CHROMIUM=$(CHROMIUM) $(PY) bench/codelab.py
	$(PY) bench/classroom.py
	$(PY) bench/polls.py
	$(PY) bench/helpers.py
	$(PY) bench/tournament.py
	$(PY) bench/hostile.py
	$(PY) bench/refusals.py
	$(PY) bench/stalled.py
	CHROMIUM=$(CHROMIUM) $(PY) bench/sheet.py

setup: $(VENV)/.runtime node_modules/.runtime

# The development packages first: a full npm install holds the runtime's too.
setup-dev: $(VENV)/.dev node_modules/.dev setup

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.runtime: requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(VENV)/.dev: requirements-dev.txt requirements.txt | $(VENV)/bin/python
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

# The page's libraries (the browser's Socket.IO client, ...) come from the npm registry, pinned
# by package-lock.json; make run installs only them, the tests and make lint also ESLint. Each
# npm ci starts node_modules afresh: a full install already holds what make run needs.
node_modules/.runtime: package.json package-lock.json
	@[ node_modules/.dev -nt package.json ] && [ node_modules/.dev -nt package-lock.json ] || \
	  npm ci --omit=dev --no-audit --no-fund
	touch $@

node_modules/.dev: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@ node_modules/.runtime

# Debian packages the tests use: Chromium's headless shell for the browser tests (Playwright's
# own browser download is not used), a CJK font so the Chinese page shows real characters, and Redis and
# nginx for the tests of several server processes sharing classes behind a balancer.
system:
	@[ -x "$(CHROMIUM)" ] && dpkg -s fonts-wqy-microhei nginx >/dev/null 2>&1 && command -v redis-server >/dev/null || { \
	  $(SUDO) apt-get update -q && \
	  $(SUDO) apt-get install -y -q chromium-headless-shell fonts-wqy-microhei redis-server nginx; }

clean:
	rm -rf $(VENV) node_modules .pytest_cache tests/artifacts
