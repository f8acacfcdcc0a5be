# gametree: every target installs what it needs into .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test bench clean graphviz latex

$(STAMP): pyproject.toml setup.py gametree_cli/_abkernel.c gametree_cli/_jsonscan.c gametree_cli/_resulttext.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/gametree solve trees/aima-5-2.yaml --algo alphabeta

test: $(STAMP) graphviz
	$(BIN)/python -m pytest

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

# pdflatex with standalone and forest: compiles `gametree render --format tex`
# output in the tests (~55 MB download, about a minute to install; CI runs it).
latex:
	@{ command -v pdflatex >/dev/null 2>&1 && kpsewhich forest.sty standalone.cls >/dev/null 2>&1; } || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "make: installing LaTeX (texlive-latex-extra, texlive-pictures) to compile render --format tex"; \
	    (apt-get update -qq && $(APT_INSTALL) texlive-latex-base texlive-latex-extra texlive-pictures) >/dev/null 2>&1 \
	      || echo "make: could not install LaTeX; the LaTeX compile test will be skipped"; \
	  else echo "make: pdflatex with forest is missing; the LaTeX compile test will be skipped"; fi; }

# The performance benchmark (several minutes; never part of `make test`): writes bench/results.md.
bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info
