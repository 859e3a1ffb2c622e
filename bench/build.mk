# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Benchmarks and evaluators (not part of `make check`; a short smoke run
# of pint-eval is, see HM_TESTS below).
#
#   make bench                       build build/bench/pint-eval
#   make pint-eval-tables            the tables of Documentation/pint.rst
#   make pint-hpcc-tables            the HPCC table of Documentation/pint.rst

.PHONY: bench pint-eval-tables pint-hpcc-tables
bench: $(BUILD)/bench/pint-eval $(BUILD)/bench/pint-hpcc

$(BUILD)/bench:
	mkdir -p $@

$(BUILD)/bench/pint-eval: bench/pint_eval.c $(HM_LIB) $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) -pthread $< -o $@ $(HM_LIB) -lm

# HPCC fed by INT or by PINT's 8-bit utilisation (bench/pint_hpcc.c); the
# real sink (pint_sink.c) needs json-c.
$(BUILD)/bench/pint-hpcc: bench/pint_hpcc.c $(HM_LIB) $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB) -ljson-c -lm

pint-hpcc-tables: $(BUILD)/bench/pint-hpcc
	$(BUILD)/bench/pint-hpcc -L 10 -S int,pint,pint16,pintT,pint16T
	$(BUILD)/bench/pint-hpcc
	$(BUILD)/bench/pint-hpcc -T dumbbell -w websearch -S int,pint,pintT,pint16T
	$(BUILD)/bench/pint-hpcc -T fattree -w websearch -l 50 -s 2
	$(BUILD)/bench/pint-hpcc -T fattree -w websearch -l 50 -s 3

# The Topology Zoo graphs the unit tests use (lib/tests/data/README.md).
HM_TOPOLOGIES	:= $(CURDIR)/lib/tests/data/topologies

pint-eval-tables: $(BUILD)/bench/pint-eval
	$(BUILD)/bench/pint-eval -k 25 -t 1000
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/Kdl.gml -t 1000
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/UsCarrier.gml -t 1000

# Smoke run: a few trials of every scheme, PPM and AMS2 on US Carrier; the
# evaluator exits non-zero if any decoded path differs from the true one.
HM_TESTS	+= $(CURDIR)/bench/test_pint_eval.sh
HM_TEST_DEPS	+= $(BUILD)/bench/pint-eval
# Smoke run of pint-hpcc: HPCC converges near eta with every feedback, and
# PINT's slowdowns stay within a stated factor of INT's on a short run.
HM_TESTS	+= $(CURDIR)/bench/test_pint_hpcc.sh
HM_TEST_DEPS	+= $(BUILD)/bench/pint-hpcc
include bench/latency.mk
