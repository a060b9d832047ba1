# Zap: `make run` serves the site with demo data; `make test` runs every test; `make check` the code rules.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
# Python 3.12: the plain command, else pyenv's install, else whatever python3.12 resolves to.
PYTHON312 := $(shell for p in python3.12 /root/.pyenv/versions/3.12*/bin/python3.12 /usr/bin/python3.12 /usr/local/bin/python3.12; do \
	$$p -c 'import sys; assert sys.version_info[:2] == (3, 12)' >/dev/null 2>&1 && { echo $$p; break; }; done)
HOST ?= 127.0.0.1
PORT ?= 8000
# Development-only targets may use the committed development key (config/settings.py); production sets SECRET_KEY.
DEV_ENV := ZAP_DEV=1

.PHONY: install run serve load test test-sqlite test-postgres browser-deps axe-deps demo bench bench-circuit messages check clean

$(VENV)/.installed: requirements.txt
	@test -n "$(PYTHON312)" || { echo "Python 3.12 não encontrado (instale python3.12)"; exit 1; }
	test -x $(PY) || $(PYTHON312) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

install: $(VENV)/.installed

# The compiled catalogues are committed; recompile one when its .po is newer and gettext is there (several `make
# test` side by side, as .ci/run runs them, then find them made and write nothing).
CATALOGUES := $(patsubst %.po,%.mo,$(wildcard locale/*/LC_MESSAGES/django.po))
messages: install $(CATALOGUES)
locale/%/LC_MESSAGES/django.mo: locale/%/LC_MESSAGES/django.po
	@if command -v msgfmt >/dev/null 2>&1; then $(DEV_ENV) $(PY) manage.py compilemessages --ignore=.venv -v0; touch $@; fi

# Serve on SQLite with the two demo events loaded (idempotent).
run: install messages
	DEBUG=1 $(PY) manage.py migrate --noinput -v0
	DEBUG=1 $(PY) manage.py load_demo --accounts
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

# The production server (bin/serve): on HOST:PORT (127.0.0.1:8000) nginx sends /ws/ (the tables' live connection) to
# uvicorn (ASGI_WORKERS processes, one per CPU) and everything else to gunicorn (config/gunicorn.py: WEB_CONCURRENCY
# processes × GUNICORN_THREADS threads), DEBUG off, hashed and compressed static files; state under .serve/PORT/.
# Settings come from the environment (README, "Deployment"); REDIS_URL is required (`bin/with-redis make serve` tries it
# with a throwaway Redis); without SECRET_KEY a random one is kept in .secret_key (mode 600). nginx-light is installed
# when missing (as root).
SECRET_FILE := .secret_key
.PHONY: nginx-deps
nginx-deps:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null; \
		else echo "instale o nginx: sudo apt-get install nginx-light"; exit 1; fi; }

serve: install messages nginx-deps
	@test -n "$$SECRET_KEY" -o -s $(SECRET_FILE) || (umask 077; $(PY) -c 'import secrets; print(secrets.token_urlsafe(50))' > $(SECRET_FILE))
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py collectstatic --noinput -v0
	SECRET_KEY_FILE=$${SECRET_KEY_FILE:-$(SECRET_FILE)} HOST=$(HOST) PORT=$(PORT) exec $(PY) bin/serve

demo: install
	$(DEV_ENV) $(PY) manage.py migrate --noinput -v0
	$(DEV_ENV) $(PY) manage.py load_demo --accounts

# axe-core (npm, pinned in tests/axe/package-lock.json) for the accessibility checks in the browser tests.
AXE := tests/axe/node_modules/axe-core/axe.min.js
axe-deps:
	@test -f $(AXE) || { command -v npm >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; \
		else echo "instale o npm: sudo apt-get install npm"; exit 1; fi; }; \
		npm ci --prefix tests/axe --no-audit --no-fund; }

# Debian's Chromium for the browser tests (browser downloads are impossible here), and axe-core.
browser-deps: axe-deps
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else echo "instale o Chromium: sudo apt-get install chromium"; exit 1; fi; }

# Every test; DATABASE_URL picks the database (SQLite by default); TESTS="tests/a tests/b" runs only those.
test: install messages browser-deps nginx-deps
	$(PY) -m pytest -q $(TESTS)

test-postgres: install messages browser-deps nginx-deps
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/zap_test} $(PY) -m pytest -q

# The import fuzz with many more cases (ZAP_FUZZ_CASES, default 5000; ZAP_FUZZ_SEED picks another sequence);
# DATABASE_URL picks the database, as for `make test`.
.PHONY: fuzz
fuzz: install
	ZAP_FUZZ_CASES=$${ZAP_FUZZ_CASES:-5000} $(PY) -m pytest -q -p no:cacheprovider tests/interchange/test_import_fuzz.py tests/interchange/test_import_limits.py

# Benchmark on a throwaway database (never the user's): SQLite file deleted before and after.
# BENCH_ARGS e.g. "--sizes 64,1024 --profile".
BENCH_SQLITE := /tmp/zap-bench.sqlite3
bench: install
	rm -f $(BENCH_SQLITE) $(BENCH_SQLITE)-wal $(BENCH_SQLITE)-shm
	$(DEV_ENV) DATABASE_URL=sqlite:///$(BENCH_SQLITE) $(PY) manage.py migrate --noinput -v0
	status=0; $(DEV_ENV) DATABASE_URL=sqlite:///$(BENCH_SQLITE) $(PY) manage.py bench $(BENCH_ARGS) || status=$$?; \
		rm -f $(BENCH_SQLITE) $(BENCH_SQLITE)-wal $(BENCH_SQLITE)-shm; exit $$status

# The same on a throwaway PostgreSQL database zap_bench (127.0.0.1:5432, user postgres, trust auth), dropped after.
BENCH_PG := postgres://postgres@127.0.0.1:5432/zap_bench
# The production shape: pages and states shared through a throwaway Redis (bin/with-redis); BENCH_REDIS= to measure
# with this process's memory only.
BENCH_REDIS ?= bin/with-redis
BENCH_PSQL := psql -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 -q
# A circuit of 20 etapas x 256 duplas (about 10,000 atletas): its ranking page after a counted result, cached, and
# its queries; on a throwaway SQLite file, then on a throwaway PostgreSQL database with a throwaway Redis.
.PHONY: bench-circuit
bench-circuit: install messages
	rm -f /tmp/zap-bench-circuit.sqlite3*
	$(DEV_ENV) DATABASE_URL=sqlite:////tmp/zap-bench-circuit.sqlite3 $(PY) manage.py migrate --noinput -v0
	status=0; $(DEV_ENV) DATABASE_URL=sqlite:////tmp/zap-bench-circuit.sqlite3 $(PY) manage.py bench_circuit $(CIRCUIT_ARGS) || status=$$?; \
		rm -f /tmp/zap-bench-circuit.sqlite3*; test $$status = 0 || exit $$status
	$(BENCH_PSQL) -c 'DROP DATABASE IF EXISTS zap_bench_circuit' -c 'CREATE DATABASE zap_bench_circuit'
	status=0; $(DEV_ENV) DATABASE_URL=postgres://postgres@127.0.0.1:5432/zap_bench_circuit $(PY) manage.py migrate --noinput -v0 \
		&& $(DEV_ENV) DATABASE_URL=postgres://postgres@127.0.0.1:5432/zap_bench_circuit bin/with-redis $(PY) manage.py bench_circuit $(CIRCUIT_ARGS) || status=$$?; \
		$(BENCH_PSQL) -c 'DROP DATABASE IF EXISTS zap_bench_circuit'; test $$status = 0 || exit $$status

# The online ranking with 10,000 accounts: a partida ends (four accounts walk) and the ranking's first page is visited
# right after, nothing cached (target ≤ 50 ms; it prints RANKING_FIRST_VISIT_MS=…); on a throwaway SQLite file, then
# on a throwaway PostgreSQL database. RANKING_ARGS e.g. "--accounts 20000 --repeat 50".
.PHONY: bench-ranking
bench-ranking: install messages
	rm -f /tmp/zap-bench-ranking.sqlite3*
	$(DEV_ENV) DATABASE_URL=sqlite:////tmp/zap-bench-ranking.sqlite3 $(PY) manage.py migrate --noinput -v0
	status=0; $(DEV_ENV) DATABASE_URL=sqlite:////tmp/zap-bench-ranking.sqlite3 $(PY) manage.py bench_ranking $(RANKING_ARGS) || status=$$?; \
		rm -f /tmp/zap-bench-ranking.sqlite3*; test $$status = 0 || exit $$status
	$(BENCH_PSQL) -c 'DROP DATABASE IF EXISTS zap_bench_ranking' -c 'CREATE DATABASE zap_bench_ranking'
	status=0; $(DEV_ENV) DATABASE_URL=postgres://postgres@127.0.0.1:5432/zap_bench_ranking $(PY) manage.py migrate --noinput -v0 \
		&& $(DEV_ENV) DATABASE_URL=postgres://postgres@127.0.0.1:5432/zap_bench_ranking $(PY) manage.py bench_ranking $(RANKING_ARGS) || status=$$?; \
		$(BENCH_PSQL) -c 'DROP DATABASE IF EXISTS zap_bench_ranking'; test $$status = 0 || exit $$status

.PHONY: bench-postgres
bench-postgres: install messages
	$(BENCH_PSQL) -c 'DROP DATABASE IF EXISTS zap_bench' -c 'CREATE DATABASE zap_bench'
	status=0; $(DEV_ENV) DATABASE_URL=$(BENCH_PG) $(PY) manage.py migrate --noinput -v0 \
		&& $(DEV_ENV) DATABASE_URL=$(BENCH_PG) $(BENCH_REDIS) $(PY) manage.py bench $(BENCH_ARGS) || status=$$?; \
		$(BENCH_PSQL) -c 'DROP DATABASE IF EXISTS zap_bench'; test $$status = 0 || exit $$status
	bin/with-redis $(PY) load/engine_bench $(ENGINE_ARGS)

# The results engine as production runs it (load/engine_bench): servers A and B (gunicorn, WEB_CONCURRENCY=2 each) on one
# throwaway PostgreSQL database (zap_bench_engine, dropped after) and one throwaway Redis; the counting
# confirmation, the first visit after it on the other server, nothing cached, the cached page, mão POSTs by 50
# referees at once, against the engine's targets. ENGINE_ARGS e.g. "--sizes 1024 --seconds 10".
.PHONY: bench-engine
bench-engine: install messages
	bin/with-redis $(PY) load/engine_bench $(ENGINE_ARGS)

# The card engine (load/truco_bench): an action, a whole partida robot against robot, a view, the game log, and how
# often the "básico" robot beats "aleatório"; pure Python, no database. TRUCO_ARGS e.g. "--partidas 100 --duel 200".
.PHONY: bench-online
bench-online: install
	$(PY) load/truco_bench $(TRUCO_ARGS)

# The probe (probe/run): the permission matrix, the CSRF set, the input fuzz and schemathesis against the
# OpenAPI document the site serves (/api/v1/schema/), through Django's test client, on a throwaway SQLite file
# (probe-sqlite, deleted before and after), then on a throwaway PostgreSQL database (probe-postgres): a number
# beyond a column's range, or a NUL in a text, is stored by SQLite and a 500 on PostgreSQL.
# Each prints the counts and fails on any 500, escape or CSRF acceptance. PROBE_ARGS e.g. "--quick" (about a minute).
PROBE_SQLITE := /tmp/zap-probe.sqlite3
.PHONY: probe probe-sqlite
probe: probe-sqlite probe-postgres

probe-sqlite: install
	rm -f $(PROBE_SQLITE) $(PROBE_SQLITE)-wal $(PROBE_SQLITE)-shm
	status=0; $(DEV_ENV) DATABASE_URL=sqlite:///$(PROBE_SQLITE) $(PY) probe/run $(PROBE_ARGS) || status=$$?; \
		rm -f $(PROBE_SQLITE) $(PROBE_SQLITE)-wal $(PROBE_SQLITE)-shm; exit $$status

# The same on a throwaway PostgreSQL database zap_probe (127.0.0.1:5432, user postgres), dropped after.
PROBE_PG := postgres://postgres@127.0.0.1:5432/zap_probe
.PHONY: probe-postgres
probe-postgres: install
	$(BENCH_PSQL) -c 'DROP DATABASE IF EXISTS zap_probe' -c 'CREATE DATABASE zap_probe'
	status=0; $(DEV_ENV) DATABASE_URL=$(PROBE_PG) $(PY) probe/run $(PROBE_ARGS) || status=$$?; \
		$(BENCH_PSQL) -c 'DROP DATABASE IF EXISTS zap_probe'; exit $$status

# The online tables under load (load/online_load): make serve's servers (bin/serve) on a throwaway PostgreSQL database
# and Redis, robots over real websockets on loopback at human pace (an action every 2 s a table), a ramp of tables
# until p95 passes 250 ms (the ceiling), then two servers sharing them. ONLINE_ARGS e.g. "--steps 100,500 --one".
.PHONY: load-online
load-online: install messages nginx-deps
	bin/with-redis $(PY) load/online_load $(ONLINE_ARGS)

# An online event under play while the public pages are measured (load/online_event_bench, issue 44): a 256-dupla
# knockout played online, 128 first-round tables of robots at human pace (one action every 2 s a table) moved by the
# site's clock (services.table_tick, 2 clocks, ZAP_ROBOT_DELAY_MS=2000), each mão written to its súmula; meanwhile
# load/engine_bench's measurements on a 1,024-dupla event (servers A and B, gunicorn): the counting confirmation, the
# first visit after it, the cached page, against issue 22's targets. A throwaway PostgreSQL database
# (zap_bench_online_event, dropped after) and Redis; about 4 minutes of play. EVENT_ARGS e.g. "--minutes 3 --clocks 1".
.PHONY: bench-online-event
bench-online-event: install messages
	bin/with-redis $(PY) load/online_event_bench $(EVENT_ARGS)

# The production server under 100 concurrent clients (load/run: wrk, a throwaway PostgreSQL database and Redis).
load: install messages
	@command -v wrk >/dev/null 2>&1 || { if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; else echo "instale o wrk: sudo apt-get install wrk"; exit 1; fi; }
	bin/with-redis $(PY) load/run

# The code rules (pyproject.toml): ruff's lint and format, mypy on the typed modules, the import contracts,
# then Django's system checks and no missing migration.
check: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(DEV_ENV) $(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(DEV_ENV) $(PY) manage.py check
	$(DEV_ENV) $(PY) manage.py makemigrations --check --dry-run

clean:
	rm -rf $(VENV) staticfiles db.sqlite3 .pytest_cache
