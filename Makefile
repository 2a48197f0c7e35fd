# The two commands (see README.md): `make demo` and `make test`.
# `make` alone builds the release library for PG_CONFIG, as PGXS's `make`
# does (pgxn install runs `make all`, then `make install`).
.PHONY: all demo test check bench dist clients install uninstall deb check-tap
all:
	PG_CONFIG="$(PG_CONFIG)" bash scripts/install.sh --build
demo:
	bash scripts/demo.sh
# The whole suite, every major (what .ci/run calls); MAJORS="18" for fewer.
test:
	$(if $(MAJORS),CHRONOID_MAJORS="$(MAJORS)" CHRONOID_FULL_MAJORS="$(MAJORS)") bash scripts/test.sh
# The loop for one change: every test on one major (MAJORS, default 18),
# with the quicker build on it too; `make test` stays the whole suite.
check:
	CHRONOID_MAJORS="$(or $(MAJORS),18)" CHRONOID_FULL_MAJORS="$(or $(MAJORS),18)" CHRONOID_RELEASE_BUILD=no bash scripts/test.sh
bench:
	bash scripts/bench.sh
dist:
	bash scripts/dist.sh
# The client packages (Python wheel and sdist) into dist/
clients:
	bash scripts/clients.sh dist
# As packagers call it: make install PG_CONFIG=/path/to/pg_config DESTDIR=/tmp/stage
install:
	PG_CONFIG="$(PG_CONFIG)" DESTDIR="$(DESTDIR)" bash scripts/install.sh
uninstall:
	PG_CONFIG="$(PG_CONFIG)" DESTDIR="$(DESTDIR)" bash scripts/install.sh --uninstall
# The Debian package for one major, in PGDG's naming and layout: make deb PG_MAJOR=15
PG_MAJOR ?= 15
deb:
	bash scripts/deb.sh $(PG_MAJOR) dist
# One Perl TAP file (or all) against one installed major:
#   make check-tap T=001_restart_clock_behind PG_CONFIG=/path/to/pg_config
check-tap:
	PG_CONFIG="$(PG_CONFIG)" bash scripts/prove.sh $(if $(T),tests/t/$(T).pl)
