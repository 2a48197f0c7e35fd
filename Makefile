# The two commands (see README.md): `make demo` and `make test`.
.PHONY: demo test bench dist install uninstall
demo:
	bash scripts/demo.sh
test:
	bash scripts/test.sh
bench:
	bash scripts/bench.sh
dist:
	bash scripts/dist.sh
# As packagers call it: make install PG_CONFIG=/path/to/pg_config DESTDIR=/tmp/stage
install:
	PG_CONFIG="$(PG_CONFIG)" DESTDIR="$(DESTDIR)" bash scripts/install.sh
uninstall:
	PG_CONFIG="$(PG_CONFIG)" DESTDIR="$(DESTDIR)" bash scripts/install.sh --uninstall
