# rankviz — build/test plumbing.
#   make run    install everything and start the app (rankviz app)
#   make test   install everything and run every test (unit, AppTest, browser e2e)
#   make docs   build the documentation site into docs/_build/html (warnings are errors)
#   make bench  run benchmarks/*.py
#   make clean  remove the venv and caches

SHELL   := /bin/bash
PYTHON  ?= python3
VENV    := .venv
VPY     := $(VENV)/bin/python
STAMP   := $(VENV)/.installed
PYTEST_ARGS ?=
STREAMLIT_ARGS ?=

.DEFAULT_GOAL := help
.PHONY: help install sysdeps run test docs bench clean

help:
	@echo "make run    - install everything and start the app"
	@echo "make test   - install everything and run all tests"
	@echo "make docs   - build the documentation site (docs/_build/html)"
	@echo "make bench  - run benchmarks/*.py"
	@echo "make clean  - remove .venv and caches"

# Create the virtualenv (only if missing).
$(VPY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
	  || { echo "error: Python 3.11+ is required ($(PYTHON) is $$($(PYTHON) -V 2>&1))"; exit 1; }
	$(PYTHON) -m venv $(VENV) \
	  || { rm -rf $(VENV); echo "error: '$(PYTHON) -m venv' failed (on Debian/Ubuntu: apt-get install python3-venv)"; exit 1; }

# Install the pinned packages (requirements.txt, the lock) and rankviz itself,
# editable, so tests and the app import the installed package; redone only
# when the lock or the package metadata changes.
$(STAMP): requirements.txt pyproject.toml | $(VPY)
	$(VPY) -m pip install --disable-pip-version-check --no-input -q -r requirements.txt
	$(VPY) -m pip install --disable-pip-version-check --no-input -q --no-deps -e .
	@touch $@

install: $(STAMP)

sysdeps:
	@bash scripts/install_system_deps.sh

run: sysdeps install
	@# Compile the tree builder and MPBoost's stump sweep once, into the per-user Numba cache, so that the app's
	@# first page neither waits for them nor grows its trees with NumPy while they compile in the background.
	@$(VPY) -m rankviz warm-up
	$(VPY) -m rankviz app $(STREAMLIT_ARGS)

# The pytest script, not `python -m pytest`: the latter puts the working
# directory on sys.path, and the tests must import the installed package.
# Two workers (pytest-xdist); the browser tests share one of them (their xdist_group,
# tests/conftest.py), so one app server and one Chromium serve them all.
TEST_WORKERS ?= 2
test: sysdeps install
	$(VENV)/bin/pytest tests -q -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)

# The site: user guide, API reference and the gallery, every example run. `make test` builds it
# too (tests/test_docs.py), so an example or a docstring that breaks fails the tests.
docs: install
	$(VPY) -m sphinx -W --keep-going -q -b html docs docs/_build/html
	@echo "open docs/_build/html/index.html"

bench: install
	@set -e; shopt -s nullglob; files=(benchmarks/*.py); \
	if [ $${#files[@]} -eq 0 ]; then echo "no benchmarks found"; exit 0; fi; \
	for f in "$${files[@]}"; do echo "== $$f"; $(VPY) "$$f"; done

clean:
	rm -rf $(VENV) .pytest_cache artifacts build *.egg-info docs/_build docs/generated docs/auto_examples \
	  docs/_gallery_extra docs/sg_execution_times.rst
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
