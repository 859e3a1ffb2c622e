# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# PINT latency quantiles evaluator (bench/pint_latency_eval.c) and the KLL
# sketch's (bench/kll_eval.c), included by bench/build.mk. They print the
# tables of Documentation/pint-latency.rst; make check reruns some of them
# through the doc-table test (selftests/docs/build.mk), which is why they
# are test dependencies.
#
#   make pint-latency-eval         build build/bench/pint-latency-eval
#   make pint-latency-table        run it with the documented parameters
#   make kll-eval                  build build/bench/kll-eval

HM_PINT_LAT_EVAL := $(BUILD)/bench/pint-latency-eval
HM_KLL_EVAL	:= $(BUILD)/bench/kll-eval

.PHONY: pint-latency-eval pint-latency-table kll-eval
pint-latency-eval: $(HM_PINT_LAT_EVAL)
kll-eval: $(HM_KLL_EVAL)
bench: $(HM_PINT_LAT_EVAL) $(HM_KLL_EVAL)
HM_TEST_DEPS	+= $(HM_PINT_LAT_EVAL) $(HM_KLL_EVAL)

$(HM_KLL_EVAL): bench/kll_eval.c $(HM_LIB) $(HM_LIB_HDRS) bench/bench_rand.h
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB) -lm

$(HM_PINT_LAT_EVAL): bench/pint_latency_eval.c $(HM_LIB) $(HM_LIB_HDRS) bench/bench_rand.h
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB) -lm

pint-latency-table: $(HM_PINT_LAT_EVAL)
	$(HM_PINT_LAT_EVAL) -t 20 -n 1000000 -s 1
