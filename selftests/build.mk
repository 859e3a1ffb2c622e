# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Test tiers. Each tier appends the TAP-producing programs or scripts it
# owns to HM_TESTS (absolute paths, executable); `make check` builds
# everything and runs them all with selftests/check.pl: TAP::Harness (the
# engine of prove(1)) prints its usual summary, then check.pl counts every
# tier and closes with "check: P passed, F failed, S skipped", the line CI
# counts. A kselftest skip prints "1..0 # SKIP why" and exits 4 when run
# alone, but 0 under a harness (HARNESS_ACTIVE set), which counts any
# non-zero exit as a failure; check.pl counts it as skipped, with its reason.

include selftests/bpf/build.mk
include selftests/net/build.mk
include selftests/vm/build.mk
include selftests/vm/module/build.mk
include selftests/vm/userspace/build.mk
include selftests/vm/datapath/build.mk
include selftests/docs/build.mk

.PHONY: check-build
check-build: all $(HM_TEST_DEPS)

check: deps
	$(MAKE) --no-print-directory check-build
	selftests/check.pl $(HM_TESTS)
