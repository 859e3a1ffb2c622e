# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# PINT dynamic and per-packet aggregation (lib/kll.c, lib/pint_latency.c,
# lib/pint_util.c) build fragment, included by the top-level Makefile after
# lib/build.mk.
#
# The sources are part of libhopmark through lib/build.mk's lib/*.c
# wildcard, and lib/tests/test_kll.c, test_pint_latency.c and
# test_pint_util.c are built and put in HM_TESTS by its lib/tests/test_*.c
# wildcard; they are not added again here. None of them needs -lm
# (lib/pint_fmath.h). This fragment adds:
#
#   make pint-dyn-tests       the three unit tests alone, under prove
#   make pint-dyn-valgrind    the same under valgrind (no leak, no error)
#   and the latency evaluator, bench/latency.mk.

HM_PINT_DYN_TESTS := $(addprefix $(BUILD)/tests/lib/,test_kll test_pint_latency test_pint_util)

$(HM_PINT_DYN_TESTS): lib/pint_fmath.h

.PHONY: pint-dyn-tests pint-dyn-valgrind
pint-dyn-tests: $(HM_PINT_DYN_TESTS)
	prove -v $(HM_PINT_DYN_TESTS)

pint-dyn-valgrind: $(HM_PINT_DYN_TESTS)
	@for t in $(HM_PINT_DYN_TESTS); do \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--error-exitcode=9 $$t >/dev/null || { echo "valgrind: $$t failed"; exit 1; }; \
		echo "valgrind: $$t clean"; \
	done

include bench/latency.mk
