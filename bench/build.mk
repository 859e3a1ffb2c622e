# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Benchmarks and evaluators (not part of `make check`; a short smoke run
# of pint-eval is, see HM_TESTS below).
#
#   make bench                       build build/bench/pint-eval and the others
#   make pint-decode-speed           the decoder speed table of Documentation/pint.rst
#   make pint-eval-tables            the tables of Documentation/pint.rst

.PHONY: bench pint-eval-tables pint-decode-speed
bench: $(BUILD)/bench/pint-eval $(BUILD)/bench/pint-decode-bench

$(BUILD)/bench:
	mkdir -p $@

$(BUILD)/bench/pint-eval: bench/pint_eval.c $(HM_LIB) $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) -pthread $< -o $@ $(HM_LIB) -lm

# The sink's path decoder, ns per packet (bench/pint_decode_bench.c).
$(BUILD)/bench/pint-decode-bench: bench/pint_decode_bench.c $(HM_LIB) $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB)

# The Topology Zoo graphs the unit tests use (lib/tests/data/README.md).
HM_TOPOLOGIES	:= $(CURDIR)/lib/tests/data/topologies

pint-eval-tables: $(BUILD)/bench/pint-eval
	$(BUILD)/bench/pint-eval -k 25 -t 1000
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/Kdl.gml -t 1000
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/UsCarrier.gml -t 1000

pint-decode-speed: $(BUILD)/bench/pint-decode-bench
	$(BUILD)/bench/pint-decode-bench -g $(HM_TOPOLOGIES)/Kdl.gml

# Documentation/pint.rst's decoder speed tables are rerun by the doc-table
# test (their packet counts; the timings are lines starting with "(").
HM_TEST_DEPS	+= $(BUILD)/bench/pint-decode-bench

# Smoke run: a few trials of every scheme, PPM and AMS2 on US Carrier; the
# evaluator exits non-zero if any decoded path differs from the true one.
HM_TESTS	+= $(CURDIR)/bench/test_pint_eval.sh
HM_TEST_DEPS	+= $(BUILD)/bench/pint-eval
include bench/latency.mk
