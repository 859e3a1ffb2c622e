# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# PINT latency quantiles evaluator (bench/pint_latency_eval.c), included by
# bench/build.mk. Not part of `make check`: the unit tests cover the
# bounds; this prints the table of Documentation/pint-latency.rst.
#
#   make pint-latency-eval         build build/bench/pint-latency-eval
#   make pint-latency-table        run it with the documented parameters

HM_PINT_LAT_EVAL := $(BUILD)/bench/pint-latency-eval

.PHONY: pint-latency-eval pint-latency-table
pint-latency-eval: $(HM_PINT_LAT_EVAL)
bench: $(HM_PINT_LAT_EVAL)

$(HM_PINT_LAT_EVAL): bench/pint_latency_eval.c $(HM_LIB) $(HM_LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB) -lm

pint-latency-table: $(HM_PINT_LAT_EVAL)
	$(HM_PINT_LAT_EVAL) -t 20 -n 1000000 -s 1
