# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# PINT concurrent queries (bench/pint_concurrency.c), included by
# bench/build.mk: path tracing, latency and utilisation sharing a 16-bit
# budget against each alone. A smoke run is part of `make check`.
#
#   make pint-concurrency          build build/bench/pint-concurrency
#   make pint-concurrency-table    the table of Documentation/pint.rst

HM_PINT_CONC := $(BUILD)/bench/pint-concurrency

.PHONY: pint-concurrency pint-concurrency-table
pint-concurrency: $(HM_PINT_CONC)
bench: $(HM_PINT_CONC)

$(HM_PINT_CONC): bench/pint_concurrency.c $(HM_LIB) $(HM_LIB_HDRS) bench/bench_rand.h
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) -pthread $< -o $@ $(HM_LIB) -ljson-c -lm

pint-concurrency-table: $(HM_PINT_CONC)
	$(HM_PINT_CONC) -t 200

# Smoke run: a few short flows; fails when a check of the evaluator fails.
HM_TESTS	+= $(CURDIR)/bench/test_pint_concurrency.sh
HM_TEST_DEPS	+= $(HM_PINT_CONC)
