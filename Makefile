# The two commands a newcomer needs are `make run` and `make test`; see README.md.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt requirements-dev.txt | cksum | cut -d' ' -f1)
MANAGE := $(BIN)/python manage.py

# Under CI=true the real services are required; default to this machine's own.
ifeq ($(CI),true)
export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/kalooki
export REDIS_URL ?= redis://127.0.0.1:6379/1
endif

.PHONY: install run test lint bench serve venue migrate demo clean mutate

$(STAMP):
	@$(PYTHON) -c 'import sys; sys.exit("Python 3.11+ is needed, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)

migrate: install
	DEBUG=1 $(MANAGE) migrate --noinput

demo: migrate
	DEBUG=1 $(MANAGE) load_demo

# Not echoed: the demo's addresses and logins are the last lines before the server's own.
run: demo
	@DEBUG=1 $(MANAGE) runserver 127.0.0.1:8000

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

# Two workers (pytest-xdist), one per core of the machines we run on; TEST_WORKERS=0 runs it in
# one process. Each worker has its own test database and Redis db (tests/xdist_worker.py).
TEST_WORKERS ?= 2

test: lint
	DEBUG=1 $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

# Mutation testing of the scoring modules (bin/mutate.py): hours for every mutant, one process.
# Not in `make test`. MUTATE_ARGS: e.g. "scoring.standings", "--sample 10", "--report".
mutate: install
	DEBUG=1 $(BIN)/python bin/mutate.py $(MUTATE_ARGS)

bench: install
	DEBUG=1 $(BIN)/python bench/run.py

# The production-like stack on one machine: gunicorn, a Celery worker and Celery beat.
serve: install
	bin/serve

# The event on the venue's own network from this laptop (README: Venue mode).
venue: install
	$(BIN)/python bin/venue.py

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache .hypothesis
