# The two commands (see README.md): `make demo` and `make test`.
.PHONY: demo test bench dist
demo:
	bash scripts/demo.sh
test:
	bash scripts/test.sh
bench:
	bash scripts/bench.sh
dist:
	bash scripts/dist.sh
