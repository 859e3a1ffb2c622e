# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# libhopmark: lib/*.c -> build/obj/lib/*.o -> build/libhopmark.a (HM_LIB).
# Unit tests: lib/tests/test_*.c (cmocka, TAP output) -> build/tests/lib/,
# registered in HM_TESTS / HM_TEST_DEPS for `make check`.
# Fuzzing: `make fuzz` (fuzz/build.mk), not part of check.

HM_LIB		:= $(BUILD)/libhopmark.a
HM_LIB_SRCS	:= $(wildcard lib/*.c)
HM_LIB_OBJS	:= $(patsubst lib/%.c,$(BUILD)/obj/lib/%.o,$(HM_LIB_SRCS))
HM_LIB_HDRS	:= $(wildcard lib/*.h)
HM_LIB_SKEL	:= $(BUILD)/bpf/hopmark_maps.skel.h

.PHONY: lib lib-tests lib-valgrind
all: $(HM_LIB)
lib: $(HM_LIB)

$(BUILD)/obj/lib $(BUILD)/tests/lib:
	mkdir -p $@

$(BUILD)/obj/lib/%.o: lib/%.c $(HM_LIB_HDRS) | $(BUILD)/obj/lib
	$(CC) $(HM_CFLAGS) -c $< -o $@

# The maps-only object is embedded through its skeleton.
$(BUILD)/obj/lib/bpf_pin.o: $(HM_LIB_SKEL)

$(HM_LIB): $(HM_LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

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

include fuzz/build.mk
