# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/pint/: PINT (Ben Basat et al., SIGCOMM 2020): hashes and the query
# engine shared bit for bit with bpf/pint.bpf.c, path tracing (encoders,
# decoder), latency compression with the KLL sketch, HPCC utilisation, the
# sink's inference, the datapath's map contract (pint_maps.h) and the GML
# topology reader. None of it needs -lm (pint_fmath.h).
#
# The unit tests lib/tests/test_pint_*.c, test_kll.c are built and put in
# HM_TESTS by lib/build.mk. This fragment adds:
#
#   make pint-tests           the PINT unit tests alone, under prove
#   make pint-dyn-valgrind    KLL, latency and utilisation tests under valgrind

HM_LIB_SRCS	+= $(wildcard lib/pint/*.c)

HM_PINT_TESTS	:= $(patsubst lib/tests/%.c,$(BUILD)/tests/lib/%,$(wildcard lib/tests/test_pint_*.c))
HM_PINT_DYN_TESTS := $(addprefix $(BUILD)/tests/lib/,test_kll test_pint_latency test_pint_util)

.PHONY: pint-tests pint-dyn-tests pint-dyn-valgrind
pint-tests: $(HM_PINT_TESTS)
	prove -v $(HM_PINT_TESTS)

pint-dyn-tests: $(HM_PINT_DYN_TESTS)
	prove -v $(HM_PINT_DYN_TESTS)

pint-dyn-valgrind: $(HM_PINT_DYN_TESTS)
	@for t in $(HM_PINT_DYN_TESTS); do \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--error-exitcode=9 $$t >/dev/null || { echo "valgrind: $$t failed"; exit 1; }; \
		echo "valgrind: $$t clean"; \
	done
