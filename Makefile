# One command each: `make run` serves the studio, `make test` checks everything from scratch.
# Both install what is missing first (apt packages, the venv, npm packages, the default model).
.PHONY: setup run test lint unit bench bench-gpu clean

PY := .venv/bin/python

setup:
	scripts/setup.sh

run: setup
	$(PY) manage.py runstack

bench: setup
	bench/run

# On a GPU host: MACARON_MODEL=<local folder of a larger model> make bench-gpu
bench-gpu:
	MACARON_ENGINE_EXTRA=gpu scripts/setup.sh
	bench/run --profile gpu

lint: setup
	.venv/bin/pre-commit run --all-files --show-diff-on-failure

unit: setup
	$(PY) -m pytest -q -n logical -m "not stack and not browser and not engine"

# The unit tests on every core first; then the tests that share one stack (Redis, a worker
# with the engine, Daphne), one engine or one Chromium, in one process.
test: setup lint
	mkdir -p test-artifacts
	$(PY) -m pytest -q -n logical -m "not stack and not browser and not engine"
	$(PY) -m pytest -q -m "stack or browser or engine"

clean:
	rm -rf var/run test-artifacts .pytest_cache .mypy_cache .ruff_cache .import_linter_cache
