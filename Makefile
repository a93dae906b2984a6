# One-stop commands. `make test` and `make demo` create the virtual environment themselves.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: venv build lint typecheck docs test train demo bench clean clean-build

# uv reads no pip configuration: it gets the package sources pip is configured with (an index,
# extra indexes, find-links folders of local wheels such as torch's CPU build) as options.
pip_config = $(shell $(PYTHON) -m pip config get global.$(1) 2>/dev/null)
UV_SOURCES = $(addprefix --index-url ,$(firstword $(PIP_INDEX_URL) $(call pip_config,index-url))) \
	$(addprefix --extra-index-url ,$(PIP_EXTRA_INDEX_URL) $(call pip_config,extra-index-url)) \
	$(addprefix --find-links ,$(sort $(PIP_FIND_LINKS) $(call pip_config,find-links)))
# What the venv holds: the build tools (Cython for `make build`, as pyproject's [build-system]
# requires), torch pinned (2.13.0 is a local CPU wheel here; an unpinned torch pulls a multi-GB
# CUDA build), and the package itself with its dev extra, editable and not compiled (`make build`
# compiles in place right after: once, not twice).
BUILD_TOOLS := "setuptools>=77" wheel "Cython>=3.0"
TORCH       := torch==2.13.0

# uv resolves and installs in parallel (about 1 minute from nothing instead of 5 with pip) and picks
# the same versions as pip (best match over every index). It is installed with the system's pip
# into $(VENV)/uv, beside the environment rather than in it, and the environment is created without
# pip (uv installs pip into it with the rest, quicker than ensurepip). When uv cannot be had, pip
# does it all. Both write the installed packages' bytecode (.pyc) at install (uv with
# --compile-bytecode, pip by default): where PYTHONDONTWRITEBYTECODE is set nothing else writes it,
# and every process that imports torch would compile it again (about 2.5 s of CPU, measured here).
UV := $(VENV)/uv/bin/uv
$(STAMP): pyproject.toml
	$(PYTHON) -m venv --without-pip $(VENV)
	if $(PYTHON) -m pip install -q --upgrade --target $(VENV)/uv uv && HOLDEM_ENV_PURE_PYTHON=1 $(UV) pip install \
	        --python $(PY) --index-strategy unsafe-best-match --compile-bytecode $(UV_SOURCES) pip $(BUILD_TOOLS) $(TORCH) -e ".[dev]"; \
	then :; else \
	    echo "make: uv unavailable or failed; installing with pip"; \
	    $(PY) -m ensurepip -q && $(PY) -m pip install --upgrade pip $(BUILD_TOOLS) && $(PY) -m pip install $(TORCH) \
	        && HOLDEM_ENV_PURE_PYTHON=1 $(PY) -m pip install -e ".[dev]"; \
	fi
	touch $(STAMP)

venv: $(STAMP)

# Compile setup.py's COMPILED modules in place (the .so next to each .py), incrementally: only
# modules whose .py changed are recompiled. Falls back to pure Python with one warning line.
# The modules compile side by side (-j 2), without debug info (-g0 after Python's own flags, -O3
# among them: the same machine code, a fifth less compile time). CFLAGS set in the environment
# replaces Python's flags, so they are passed in full. The compiler's output (Cython's performance
# hints, gcc's command lines) goes to build/build.log; the terminal gets one line (and the pure-Python
# fallback's warning line, when there is one).
BUILD_CFLAGS ?= -g0
build: $(STAMP)
	@mkdir -p build
	@if CFLAGS="$$($(PY) -c 'import sysconfig; print(sysconfig.get_config_var("CFLAGS"))') $(BUILD_CFLAGS)" \
	        $(PY) setup.py build_ext --inplace -q -j 2 > build/build.log 2>&1; then \
	    built=$$(sed -n "s/^building '\(.*\)' extension$$/\1/p" build/build.log | xargs); \
	    grep '^WARNING: holdem-env' build/build.log \
	        || echo "make build: $${built:+compiled }$${built:-compiled modules up to date} (log: build/build.log)"; \
	else cat build/build.log; exit 1; fi

# Lint (ruff) and types (mypy, configured in pyproject.toml) read only the sources, so they run while
# the build compiles (its C compilers leave a core idle for a while); then the whole suite on two
# workers. Each job's output is printed in one piece when it ends.
test: $(STAMP)
	$(MAKE) --no-print-directory -j 3 --output-sync=target build lint typecheck docs
	$(PY) -m pytest -n 2 -q

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# mypy checks the package as it is imported (holdem_env.agents, holdem_env.training) through a tree of
# links that tools/typecheck.py writes in build/typecheck/; its report names the repository's files.
# Editors: a per-file mypy or pyright sees agents/ as `agents.*`; `make typecheck` is the verdict.
typecheck: $(STAMP)
	$(PY) tools/typecheck.py

# The docs site (mkdocs.yml; the API pages read the .py sources, so no build needed): any warning fails
# (not -q: mkdocs 1.6 then drops the warnings that --strict counts).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict -d build/site

# The main job: a heads-up league of random, tag, cfr-lite (learning by self-play) and ppo (learning by PPO).
train: build
	$(VENV)/bin/holdem train --config configs/quickstart.yaml --overwrite

# Seconds: no compiling first (the demo is the same in pure Python; `make build` speeds up the rest).
demo: $(STAMP)
	$(VENV)/bin/holdem demo

# The benchmarks' reference libraries (the bench extra) come into the same venv on first use, their
# bytecode written at install as for the rest (see UV above).
bench: build $(VENV)/.bench-installed
	$(PY) benchmarks/run_all.py

$(VENV)/.bench-installed: $(STAMP)
	if [ -x $(UV) ]; then $(UV) pip install --python $(PY) --index-strategy unsafe-best-match --compile-bytecode \
	        $(UV_SOURCES) -r pyproject.toml --extra bench; \
	else HOLDEM_ENV_PURE_PYTHON=1 $(PY) -m pip install -e ".[bench]"; fi
	touch $@

# Back to pure Python (until the next build): the generated C and the extension modules.
clean-build:
	rm -rf build holdem_env/*/*.c holdem_env/*/*.so

clean: clean-build
	rm -rf $(VENV)
