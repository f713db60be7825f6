# The two README commands (`make run`, `make test`) and the benchmark live here.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
WORKSPACE ?= sample_workspace

.PHONY: setup run test lint bench test-mistletoe clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "reme-tui needs Python 3.11 or newer")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/reme-tui $(WORKSPACE)

test: $(STAMP)
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# Chunking and conformance under each mistletoe release pyproject.toml allows (each one
# installed alone into a scratch directory that shadows the venv's copy).
MISTLETOE_VERSIONS ?= 1.3.0 1.4.0 1.5.0 1.5.1 1.6.0
test-mistletoe: $(STAMP)
	@set -e; for v in $(MISTLETOE_VERSIONS); do \
		dir=$$(mktemp -d); \
		$(BIN)/python -m pip install --quiet --no-deps --target $$dir mistletoe==$$v; \
		echo "mistletoe $$v"; \
		PYTHONPATH=$$dir $(BIN)/python -m pytest -q -p no:cacheprovider \
			tests/engine/test_chunking.py tests/engine/test_chunking_speedup.py \
			tests/engine/test_fast_blocks.py tests/conformance; \
		rm -rf $$dir; \
	done

bench: $(STAMP)
	$(BIN)/python -m benchmarks.run $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis benchmarks/.workspaces
