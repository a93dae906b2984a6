# One-stop commands. `make test` and `make demo` create the virtual environment themselves.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv build test train demo bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip "setuptools>=77" wheel
	# torch pinned: 2.13.0 is a local CPU wheel here; an unpinned torch pulls a multi-GB CUDA build.
	$(PY) -m pip install torch==2.13.0
	$(PY) -m pip install -e ".[dev]"
	touch $(STAMP)

venv: $(STAMP)

build: $(STAMP)

test: build
	$(PY) -m pytest -n 2 -q

# The main job: a heads-up league (random vs tag vs cfr-lite learning by self-play), <= 10 min on 2 cores.
train: build
	$(VENV)/bin/holdem train --config configs/quickstart.yaml --overwrite

demo: build
	$(VENV)/bin/holdem demo

bench: build
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV)
