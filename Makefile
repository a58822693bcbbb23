# Two commands do all set-up on a fresh machine:
#   make run   - create .venv, install, start the service with the simulated board
#   make test  - create .venv, install what tests need (including Debian's chromium),
#                check the types of the package (mypy --strict) and run every test,
#                spread over $(JOBS) processes (pytest-xdist)
#   make test-fast - the unit lane while you work: no browser, no live server, nothing
#                marked slow (under a minute on 2 cores); doctests included
#   make deb      - (root) gingo-companion_<version>_arm64.deb in $(DEB_DIR)/, built in an arm64
#                Debian 12 root under qemu-user (docs/install.md)
#   make pi-check - (root) boot the .deb and install.sh with systemd in qemu-system-aarch64 and
#                check the service from the host; caches in $$GINGO_PI_CACHE (~/.cache/gingo-pi).
#                Without root or binfmt_misc it skips with one line, unless GINGO_PI_REQUIRED=1 (CI)

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
HOST ?= 0.0.0.0
PORT ?= 8000
# xdist workers: 2 matches CI's 2 cores; tests that share a module fixture (the browser
# tests' server and Chromium) stay on one worker (--dist loadfile)
JOBS ?= 2
XDIST := -n $(JOBS) --dist loadfile
FAST := not slow and not browser and not live

.PHONY: run test test-fast bench venv clean chromium mosquitto pico-harness axe-core deb pi-check

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): $(BIN)/python pyproject.toml constraints.txt
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[test]'
	touch $(STAMP) $@

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/gingo serve --host $(HOST) --port $(PORT)

# The browser tests need Debian's chromium (never a browser download).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = "0" ]; then \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
			|| echo "warning: could not install chromium; browser tests will be skipped"; \
		else \
			echo "note: run 'sudo apt-get install chromium' to enable the browser tests"; \
		fi; \
	fi

# The MQTT tests (Home Assistant, remote play) run Debian's mosquitto on 127.0.0.1
# (tests/mqtt_broker.py); without it they skip, and with CI=true they fail.
mosquitto:
	@if ! command -v mosquitto >/dev/null 2>&1 && [ ! -x /usr/sbin/mosquitto ] || ! command -v mosquitto_passwd >/dev/null 2>&1; then \
		if [ "$$(id -u)" = "0" ]; then \
			(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto mosquitto-clients >/dev/null) \
			|| echo "warning: could not install mosquitto; the MQTT tests will be skipped"; \
		else \
			echo "note: run 'sudo apt-get install mosquitto mosquitto-clients' to enable the MQTT tests"; \
		fi; \
	fi

# The emulated Pico (tests/pico): rp2040js from the npm registry, pinned by package-lock.json.
# The tests that use it also need GINGO_PICO_FIRMWARE and GINGO_PICO_BOOTROM (bash .ci/run
# sets them to ../shared/pico/); without them they skip with one line saying so.
PICO_HARNESS := tests/pico/node_modules/.package-lock.json

pico-harness: $(PICO_HARNESS)

$(PICO_HARNESS): tests/pico/package.json tests/pico/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		(cd tests/pico && npm ci --no-audit --no-fund --loglevel=error) \
		|| echo "warning: npm ci failed in tests/pico; the emulated-Pico tests will be skipped"; \
	else \
		echo "note: install Node.js (18 or later) and npm to run the firmware on an emulated Pico"; \
	fi

# axe-core (tests/axe): the accessibility checker tests/test_a11y.py runs in Chromium, from the
# npm registry, pinned by package-lock.json; without npm those tests skip with one line saying so.
AXE_CORE := tests/axe/node_modules/.package-lock.json

axe-core: $(AXE_CORE)

$(AXE_CORE): tests/axe/package.json tests/axe/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		(cd tests/axe && npm ci --no-audit --no-fund --loglevel=error) \
		|| echo "warning: npm ci failed in tests/axe; the accessibility tests will be skipped"; \
	else \
		echo "note: install Node.js (18 or later) and npm to run the accessibility checks (axe-core)"; \
	fi

test: $(TEST_STAMP) chromium mosquitto pico-harness axe-core
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

test-fast: $(TEST_STAMP)
	$(BIN)/python -m pytest -q $(XDIST) -m "$(FAST)" $(PYTEST_ARGS)

BENCH_STAMP := $(VENV)/.installed-bench

$(BENCH_STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $(STAMP) $@

bench: $(BENCH_STAMP) pico-harness
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# hardware/pi/pi.py uses only Python's standard library: the host's python3 runs it.
DEB_DIR ?= dist
deb:
	python3 hardware/pi/pi.py deb --out $(DEB_DIR)

pi-check:
	python3 hardware/pi/pi.py check

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info tests/pico/node_modules tests/axe/node_modules
