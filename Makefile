# gametree: every target installs what it needs into .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test bench bench-star2 fuzz clean graphviz chromium latex lock test-newest quick-table

# Installs come from requirements.lock: every runtime, test and build dependency
# pinned to one version with its hashes, so a fresh clone next month installs
# what was tested today (pyproject.toml keeps the ranges `pip install .` uses).
# The build backend comes from the lock too (--no-build-isolation), so nothing
# unpinned is fetched. `make lock` refreshes it; see docs/dependencies.md.
# The editable install is setuptools' "compat" mode: a .pth line naming the
# checkout, like an installed package. The default mode installs an import
# hook that loads pathlib and importlib.util into every Python process of the
# venv (~10 ms CPU), which made `make bench`'s textbook baseline look slower
# than it is for a user (docs/performance.md). The setuptools that supports it
# is pinned in the lock; its notice that the mode is transitional is silenced.
LOCK := requirements.lock

$(STAMP): pyproject.toml setup.py $(LOCK) gametree_cli/search/depth_first.py gametree_cli/views/paste_lines.py gametree_cli/io/gtb_columns.py $(wildcard gametree_cli/io/scan_*.py gametree_cli/io/scan_*.pxd)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes --no-deps -r $(LOCK)
	PYTHONWARNINGS="ignore:Compat editable installs" \
	  $(BIN)/pip install --quiet --no-deps --no-build-isolation -e . --config-settings editable_mode=compat
	$(BIN)/pip check >/dev/null || { $(BIN)/pip check; false; }  # the lock is complete: nothing missing or clashing
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/gametree solve trees/aima-5-2.yaml --algo alphabeta

# The suite in parallel: one pytest-xdist worker per CPU, an idle worker taking
# tests queued for a busy one (worksteal). A plain `pytest` runs it in one process.
# See docs/testing.md.
PYTEST_WORKERS ?= auto

test: $(STAMP) graphviz chromium
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal

# System programs some tests use. Each is installed with apt-get only when it
# is missing and we are root on a Debian/Ubuntu machine, and never fails the
# build: the tests that need a missing program skip and say why.
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends

# Graphviz's dot: `gametree render --format svg|png|pdf` and its tests (~10 s to install).
graphviz:
	@command -v dot >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "make: installing graphviz (for render --format svg/png)"; \
	    (apt-get update -qq && $(APT_INSTALL) graphviz) >/dev/null 2>&1 \
	      || echo "make: could not install graphviz; the tests that need dot will be skipped"; \
	  else echo "make: Graphviz's dot is missing (apt-get install graphviz / brew install graphviz); the tests that need it will be skipped"; fi; }

# Debian's chromium, which tests/test_page_browser.py drives through Playwright (never `playwright install`:
# no browser is downloaded), and librsvg's rsvg-convert for `render --steps DIR --format png`.
chromium:
	@{ command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; } && command -v rsvg-convert >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "make: installing chromium and librsvg2-bin (the browser-page tests, render --steps --format png)"; \
	    (apt-get update -qq && $(APT_INSTALL) chromium librsvg2-bin) >/dev/null 2>&1 \
	      || echo "make: could not install chromium/librsvg2-bin; the tests that need them will be skipped"; \
	  else echo "make: chromium or rsvg-convert is missing (apt-get install chromium librsvg2-bin); the tests that need them will be skipped"; fi; }

# pdflatex with standalone and forest: compiles `gametree render --format tex`
# output in the tests (~55 MB download, about a minute to install; CI runs it).
latex:
	@{ command -v pdflatex >/dev/null 2>&1 && kpsewhich forest.sty standalone.cls >/dev/null 2>&1; } || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "make: installing LaTeX (texlive-latex-extra, texlive-pictures) to compile render --format tex"; \
	    (apt-get update -qq && $(APT_INSTALL) texlive-latex-base texlive-latex-extra texlive-pictures) >/dev/null 2>&1 \
	      || echo "make: could not install LaTeX; the LaTeX compile test will be skipped"; \
	  else echo "make: pdflatex with forest is missing; the LaTeX compile test will be skipped"; fi; }

# The performance benchmark (several minutes; never part of `make test`): writes bench/results.md,
# and bench/results-real-probabilities.md (issue 14's chance tree with decimal and fraction p).
bench: $(STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/real_probabilities.py
	$(BIN)/python bench/writer.py --reps 5 --report bench/results-writer.md

# Star2 against Star1: leaves evaluated on 100 random chance trees per shape (~40 s); the table in docs/chance.md.
bench-star2: $(STAMP)
	$(BIN)/python bench/star2_vs_star1.py --trees 100

# Long fuzzing (never part of `make test`, ~15 min on 2 cores): the property tests of
# tests/test_fuzz.py with many examples and a fresh seed, the algorithm cross-check on
# many random trees, then atheris (coverage-guided) for FUZZ_SECONDS. Findings: a failing
# test with its example, or build/fuzz/crash-* (replay: $(BIN)/python fuzz/atheris_tree.py FILE).
# See docs/fuzzing.md.
FUZZ_EXAMPLES    ?= 3000
FUZZ_SECONDS     ?= 300
CROSSCHECK_TREES ?= 50000
FUZZ_STAMP := $(VENV)/.installed-fuzz

$(FUZZ_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,fuzz]'
	touch $(FUZZ_STAMP)

fuzz: $(FUZZ_STAMP)
	seed=$${GAMETREE_FUZZ_SEED:-$$(date +%s)}; echo "make fuzz: GAMETREE_FUZZ_SEED=$$seed"; \
	GAMETREE_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) GAMETREE_FUZZ_SEED=$$seed GAMETREE_CROSSCHECK_TREES=$(CROSSCHECK_TREES) \
	  $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_fuzz.py $(wildcard tests/test_crosscheck.py)
	mkdir -p build/fuzz
	$(BIN)/python fuzz/atheris_tree.py --prepare build/fuzz
	$(BIN)/python fuzz/atheris_tree.py build/fuzz/corpus -dict=build/fuzz/tokens.dict \
	  -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=2048 -max_len=16384 \
	  -artifact_prefix=build/fuzz/ -print_final_stats=1

# Refresh requirements.lock: the newest releases within pyproject.toml's ranges
# (for Python >= 3.10 on every platform, with hashes), resolved by uv, a
# pinned version of which is installed into .venv for this. Review the diff,
# run `make test`, commit both.
UV_VERSION   ?= 0.13.9
# keep in step with [build-system] requires in pyproject.toml
BUILD_REQUIRES := setuptools>=77 Cython>=3.0

lock:
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet 'uv==$(UV_VERSION)'
	printf '%s\n' $(foreach requirement,$(BUILD_REQUIRES),'$(requirement)') | $(BIN)/uv pip compile pyproject.toml - --extra test --generate-hashes \
	  --universal --python-version 3.10 --no-header --quiet -o $(LOCK)
	@echo "make lock: wrote $(LOCK); review it, run make test, commit it"

# The suite against the newest releases pyproject.toml allows, in a separate
# environment (.venv-newest), so drift is seen before users meet it. The
# scheduled workflow .github/workflows/newest-releases.yml runs this weekly.
test-newest:
	$(PYTHON) -m venv .venv-newest
	.venv-newest/bin/pip install --quiet --upgrade pip
	.venv-newest/bin/pip install --quiet --upgrade -e '.[test]'
	.venv-newest/bin/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal

clean:
	rm -rf $(VENV) .venv-newest build *.egg-info

# The quick path's table (gametree_cli/cli/quick_table.py): what `gametree solve` and the help pages need to
# run without importing typer, read from the typer app. Run after changing a command's options or help;
# tests/test_quick.py fails until then. See docs/performance.md ("start-up").
quick-table: $(STAMP)
	$(BIN)/python -m gametree_cli.cli.quick_table_write
