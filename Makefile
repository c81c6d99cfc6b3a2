# The two commands a new user needs: `make run` and `make test`.
# Both create .venv from the locked requirements on first use.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lock messages fonts clean

# examples/dominoes is a game plugin in its own package; it is installed
# beside tileworks so that the tests play it through the whole platform.
$(STAMP): requirements-dev.lock pyproject.toml examples/dominoes/pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("tileworks needs Python 3.11 or newer") if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e . -e examples/dominoes
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/tileworks serve --host 127.0.0.1 --port 8000

# The browser tests drive Debian's Chromium, the Japanese pages need a CJK
# font for their screenshots (and `make fonts` its glyphs), and the server's
# tests run on a real PostgreSQL too; install them when missing.
CHROMIUM := /usr/bin/chromium
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
POSTGRES := /usr/bin/pg_lsclusters
APT_PACKAGES := chromium fonts-noto-cjk postgresql

$(CHROMIUM) $(CJK_FONT) $(POSTGRES):
	@echo "Installing Debian's $(APT_PACKAGES) for the tests"
	if [ "$$(id -u)" = 0 ]; then apt-get install -y -q $(APT_PACKAGES) || (apt-get update -q && apt-get install -y -q $(APT_PACKAGES)); \
	else sudo apt-get install -y -q $(APT_PACKAGES) || (sudo apt-get update -q && sudo apt-get install -y -q $(APT_PACKAGES)); fi

# JAX's compilation cache on disk: the same engine compiled by several tests
# (and both workers) is compiled once. The tests compile at LLVM's level 1:
# compiling is most of the JAX tests' time, and they check what the engines
# compute, not how fast (bench/ compiles as users do). Level 0 trained the
# tiny Azul run to a network that loses to random on an Intel Xeon (it
# beats random there at levels 1 and 2; docs/performance.md).
test: $(STAMP) $(CHROMIUM) $(CJK_FONT) $(POSTGRES)
	XLA_FLAGS="$$XLA_FLAGS --xla_backend_optimization_level=1" \
	JAX_COMPILATION_CACHE_DIR=$(CURDIR)/build/jax-cache JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS=0.5 \
	$(BIN)/python -m pytest -n 2 --durations=20

bench: $(STAMP)
	$(BIN)/python bench/bench_random_play.py kiln
	for n in 2 3 4; do $(BIN)/python bench/bench_random_play.py azul -o players=$$n; done
	for n in 2 3; do $(BIN)/python bench/bench_random_play.py tiles -o players=$$n; done
	for n in 2 4 6; do $(BIN)/python bench/bench_random_play.py tuileries -o players=$$n; done
	$(BIN)/python bench/bench_agents.py
	$(BIN)/python bench/bench_server.py

# Regenerate the lock files after changing requirements*.in (needs pip-tools).
lock: $(STAMP)
	$(BIN)/python -m pip install --quiet pip-tools
	$(BIN)/pip-compile --quiet --strip-extras --generate-hashes --no-header -o requirements.lock requirements.in
	$(BIN)/pip-compile --quiet --strip-extras --generate-hashes --no-header -o requirements-dev.lock requirements-dev.in

# Refresh the translation catalogs from the source (new strings arrive
# untranslated; tests/test_catalogs.py fails until each has its Japanese).
messages: $(STAMP)
	mkdir -p build
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k _ -k pgettext:1c,2 --no-location --sort-output --no-wrap --project tileworks --version 0.1 -o build/tileworks.pot .
	$(BIN)/pybabel update -i build/tileworks.pot -d src/tileworks/locale -D tileworks --no-wrap --no-fuzzy-matching --ignore-obsolete

# Rewrite the web font's slices after the Japanese catalogs or rules pages
# gain characters (tests/web/test_fonts.py says when; needs fonts-noto-cjk).
fonts: $(STAMP) $(CJK_FONT)
	$(BIN)/python tools/make_fonts.py

clean:
	rm -rf $(VENV) .pytest_cache build src/*.egg-info examples/dominoes/src/*.egg-info
