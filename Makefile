# One-stop commands. `make test` and `make demo` create the virtual environment themselves.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv build test train demo bench clean clean-build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	# Cython in the venv too (pyproject's [build-system] requires), for `make build`.
	$(PY) -m pip install --upgrade pip "setuptools>=77" wheel "Cython>=3.0"
	# torch pinned: 2.13.0 is a local CPU wheel here; an unpinned torch pulls a multi-GB CUDA build.
	$(PY) -m pip install torch==2.13.0
	# Installed without compiling: `make build` compiles in place right after (once, not twice).
	HOLDEM_ENV_PURE_PYTHON=1 $(PY) -m pip install -e ".[dev]"
	touch $(STAMP)

venv: $(STAMP)

# Compile setup.py's COMPILED modules in place (the .so next to each .py), incrementally: only
# modules whose .py changed are recompiled. Falls back to pure Python with one warning line.
build: $(STAMP)
	$(PY) setup.py build_ext --inplace -q

# Lint (ruff), types (mypy, configured in pyproject.toml), then the whole suite on two workers.
test: build
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(PY) -m pytest -n 2 -q

# The main job: a heads-up league of random, tag, cfr-lite (learning by self-play) and ppo (learning by PPO), <= 10 min on 2 cores.
train: build
	$(VENV)/bin/holdem train --config configs/quickstart.yaml --overwrite

demo: build
	$(VENV)/bin/holdem demo

bench: build
	$(PY) benchmarks/run_all.py

# Back to pure Python (until the next build): the generated C and the extension modules.
clean-build:
	rm -rf build holdem_env/*/*.c holdem_env/*/*.so

clean: clean-build
	rm -rf $(VENV)
