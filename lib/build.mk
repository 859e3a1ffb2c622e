# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# libhopmark: one folder per protocol (lib/ioam/, lib/ipv6/, lib/pint/,
# lib/postcard/; lib/srv6/ is headers only) and lib/common/ for what they
# share. Each folder's build.mk, included from the top-level Makefile
# before this file, adds its sources to HM_LIB_SRCS:
#
#   lib/<folder>/*.c -> build/obj/lib/<folder>/*.o -> build/libhopmark.a
#
# Headers are included by their folder from lib/ (-Ilib): "ioam/ioam6.h",
# "common/hopmark_maps.h"; lib/hopmark.h includes the common ones.
# Unit tests: lib/tests/test_*.c (cmocka, TAP output) -> build/tests/lib/,
# registered in HM_TESTS / HM_TEST_DEPS for `make check`.

HM_LIB		:= $(BUILD)/libhopmark.a
HM_LIB_OBJS	:= $(patsubst lib/%.c,$(BUILD)/obj/lib/%.o,$(HM_LIB_SRCS))
HM_LIB_HDRS	:= $(wildcard lib/*.h lib/*/*.h)

.PHONY: lib lib-tests lib-valgrind
all: $(HM_LIB)
lib: $(HM_LIB)

$(BUILD)/obj/lib/%.o: lib/%.c $(HM_LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) -c $< -o $@

$(HM_LIB): $(HM_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tests/lib:
	mkdir -p $@

# Unit tests: one cmocka program per concern. prove(1) runs a binary test
# directly when it is executable; each prints TAP (cmocka's CM_OUTPUT_TAP).
HM_LIB_TEST_SRCS := $(wildcard lib/tests/test_*.c)
HM_LIB_TESTS	:= $(patsubst lib/tests/%.c,$(BUILD)/tests/lib/%,$(HM_LIB_TEST_SRCS))
# Test data: HM_TEST_DATA is lib/tests/data, part of the repository (its
# README.md says where each file comes from). HM_EXTRA_DATA_DEFAULT is
# where a test looks for optional data from other projects when the
# environment variable HM_EXTRA_DATA does not name a directory at run time;
# a test whose file is in neither skips with the reason.
HM_LIB_TEST_DATA := $(CURDIR)/lib/tests/data
HM_LIB_EXTRA_DATA := $(abspath ../shared/data/captures)

$(BUILD)/tests/lib/%: lib/tests/%.c lib/tests/hm_test.h $(HM_LIB) | $(BUILD)/tests/lib
	$(CC) $(HM_CFLAGS) -Ilib/tests -DHM_TEST_DATA='"$(HM_LIB_TEST_DATA)"' \
		-DHM_EXTRA_DATA_DEFAULT='"$(HM_LIB_EXTRA_DATA)"' \
		$< -o $@ $(HM_LIB) -lcmocka $(HM_LDLIBS)

lib-tests: $(HM_LIB_TESTS)
	prove -v $(HM_LIB_TESTS)

HM_TESTS	+= $(HM_LIB_TESTS)
HM_TEST_DEPS	+= $(HM_LIB_TESTS)

# Every unit test under valgrind: no leak, no invalid access.
lib-valgrind: $(HM_LIB_TESTS)
	@for t in $(HM_LIB_TESTS); do \
		valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
			--error-exitcode=9 --suppressions=lib/tests/valgrind.supp \
			$$t >/dev/null || { echo "valgrind: $$t failed"; exit 1; }; \
		echo "valgrind: $$t clean"; \
	done
