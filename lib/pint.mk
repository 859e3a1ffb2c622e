# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# PINT (lib/pint_*.c, lib/gml.c) build fragment, included by the top-level
# Makefile after lib/build.mk.
#
# The PINT sources are part of libhopmark through lib/build.mk's lib/*.c
# wildcard, and the unit tests lib/tests/test_pint_*.c are built and put in
# HM_TESTS by its lib/tests/test_*.c wildcard; they are not added again
# here. This fragment adds `make pint-tests` (the PINT unit tests alone)
# and the evaluator with its smoke test (bench/build.mk).

HM_PINT_TESTS	:= $(filter $(BUILD)/tests/lib/test_pint_%,$(HM_LIB_TESTS))

# The GML tests read lib/tests/data/topologies, found from HM_TEST_DATA
# (lib/build.mk).
$(HM_PINT_TESTS): lib/tests/hm_test.h

.PHONY: pint-tests
pint-tests: $(HM_PINT_TESTS)
	prove -v $(HM_PINT_TESTS)

include bench/build.mk
