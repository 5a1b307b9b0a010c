# Two set-up commands for a fresh machine: `make demo` (the main job) and `make test` (the tests).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install -q --disable-pip-version-check
# verifiers (tests/training/test_verifiers_env.py) pins mcp<2, which this project's runtime cannot hold: its own venv.
VF_VENV ?= .venv-verifiers

.PHONY: demo test lint install install-test test-packages verifiers-packages bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip

# Runtime only (gymnasium, pydantic, sqlalchemy, fastmcp) plus the test tools. The installs are editable: code
# changes need none, and a stamp file in the venv skips them until pyproject.toml or this Makefile changes.
install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml Makefile | $(BIN)/python
	$(PIP) -e ".[dev]"
	touch $@

# Everything the full test suite exercises: the synth extra (CPU torch pinned first: an unpinned torch pulls
# CUDA builds), Ray for the rollout backend (the version OpenRLHF 0.11.2 pins), the CPU pieces of OpenRLHF for
# the agent-executor tests, the sandbox's bubblewrap and seccomp binding, and BFCL's own multi-turn checker for the
# adapter agreement tests (its multi-turn modules need nothing beyond the standard library; its full dependency
# set pins numpy 1.26). verl's agent-loop modules with their light dependencies (verl-test extra; verl's own list
# pins transformers<5.11 and needs CUDA builds for training), skyrl-gym, and verifiers in $(VF_VENV).
# The two venvs' third-party packages install side by side (about 45 s each); this repository's own editable
# installs run one at a time (they build in the same source tree).
install-test: $(VENV)/.installed-test

$(VENV)/.installed-test: $(VENV)/.installed pyproject.toml Makefile training/requirements-verifiers.txt
	$(MAKE) --no-print-directory -j2 test-packages verifiers-packages
	$(VF_VENV)/bin/pip install -q --disable-pip-version-check --no-deps -e .
	touch $@

test-packages: install
	$(PIP) torch==2.13.0 ray==2.55.0
	$(PIP) -e ".[dev,synth,train-test,adapters,ray,bench,bench-test,sandbox,trl,verl-test,skyrl]"
	$(PIP) --no-deps openrlhf==0.11.2
	$(PIP) --no-deps verl==0.9.1 tensordict==0.10.0 pyvers==0.1.0
	$(PIP) --no-deps bfcl-eval==2026.3.23

verifiers-packages:
	test -x $(VF_VENV)/bin/python || $(PYTHON) -m venv $(VF_VENV)
	$(VF_VENV)/bin/pip install -q --disable-pip-version-check -r training/requirements-verifiers.txt

demo: install
	$(BIN)/envfactory list
	$(BIN)/envfactory verify
	$(BIN)/envfactory rollout --agent reference
	$(BIN)/envfactory rollout --agent random

# The gate CI runs before the tests: lint and import order, formatting, and types of the runtime. mypy needs the
# full environment (install-test) to see the optional packages the runtime imports.
lint: install-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy envfactory_gym

test: install-test
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -n auto --dist loadgroup -q --durations=25

bench: install
	$(BIN)/python benchmarks/bench_scoring.py
	$(BIN)/python benchmarks/bench_startup.py
	$(BIN)/python benchmarks/bench_core.py
	$(BIN)/python benchmarks/bench_mcp.py
