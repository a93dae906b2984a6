# One-stop commands. `make test` and `make demo` create the virtual environment themselves.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv build test train demo bench clean clean-build

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	# setuptools and Cython in the venv too (pyproject's [build-system] requires), for `make build`.
	$(PY) -m pip install --upgrade pip "setuptools>=77" wheel "Cython>=3.0"
	# torch pinned: 2.13.0 is a local CPU wheel here; an unpinned torch pulls a multi-GB CUDA build.
	$(PY) -m pip install torch==2.13.0
	# Installed without compiling: `make build` compiles in place right after (once, not twice).
	HOLDEM_ENV_PURE_PYTHON=1 $(PY) -m pip install -e ".[dev]"
	touch $(STAMP)

venv: $(STAMP)

# Compile the modules listed in setup.py in place (the .so next to each .py) -- incremental: only
# modules whose .py/.pxd changed are recompiled (~0.5 s when nothing did). Falls back to pure
# Python with a warning if Cython fails; HOLDEM_ENV_PURE_PYTHON=1 compiles nothing.
build: $(STAMP)
	$(PY) setup.py build_ext --inplace -q

# The suite twice: against the compiled build, then against the .py sources of the same checkout
# (HOLDEM_ENV_PURE_PYTHON=1 at run time), so both ways the package can run are tested.
test: build
	$(PY) -m pytest -n 2 -q
	HOLDEM_ENV_PURE_PYTHON=1 $(PY) -m pytest -n 2 -q

# The main job: a heads-up league (random vs tag vs cfr-lite learning by self-play), <= 10 min on 2 cores.
train: build
	$(VENV)/bin/holdem train --config configs/quickstart.yaml --overwrite

demo: build
	$(VENV)/bin/holdem demo

bench: build
	$(PY) benchmarks/run_all.py

# Back to pure Python (until the next build): the generated C, the extensions, the build record.
clean-build:
	rm -rf build holdem_env/*.c holdem_env/*.so holdem_env/_build_info.py

clean: clean-build
	rm -rf $(VENV)
