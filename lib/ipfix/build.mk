# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/ipfix/: IPFIX (RFC 7011) for postcards, on Debian's libfixbuf: the
# information model of hopmark's elements (ipfix_ie.h, hopmark-ipfix.xml),
# its templates, the exporter and the decoder the collector uses.
#
# libfixbuf needs GLib, which most of hopmark's binaries must not link:
# lib/ipfix/*.c goes into its own archive, never into libhopmark.a.
#
#   lib/ipfix/*.c -> build/obj/ipfix/*.o -> build/libhopmark-ipfix.a
#
# A program that uses it links $(HM_IPFIX_LIB) $(HM_LIB) $(HM_IPFIX_LDLIBS)
# and compiles with $(HM_IPFIX_CFLAGS). Unit tests: lib/ipfix/tests/test_*.c
# (cmocka, TAP) -> build/tests/ipfix/, registered in HM_TESTS.

HM_IPFIX_LIB	:= $(BUILD)/libhopmark-ipfix.a
HM_IPFIX_CFLAGS	:= $(shell pkg-config --cflags libfixbuf 2>/dev/null)
HM_IPFIX_LDLIBS	:= $(shell pkg-config --libs libfixbuf 2>/dev/null)
HM_IPFIX_SRCS	:= $(wildcard lib/ipfix/*.c)
HM_IPFIX_OBJS	:= $(patsubst lib/ipfix/%.c,$(BUILD)/obj/ipfix/%.o,$(HM_IPFIX_SRCS))

.PHONY: ipfix-lib ipfix-tests
all: $(HM_IPFIX_LIB)
ipfix-lib: $(HM_IPFIX_LIB)

$(BUILD)/obj/ipfix/%.o: lib/ipfix/%.c $(HM_LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) $(HM_IPFIX_CFLAGS) -c $< -o $@

$(HM_IPFIX_LIB): $(HM_IPFIX_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

HM_IPFIX_TEST_SRCS := $(wildcard lib/ipfix/tests/test_*.c)
HM_IPFIX_TESTS	:= $(patsubst lib/ipfix/tests/%.c,$(BUILD)/tests/ipfix/%,$(HM_IPFIX_TEST_SRCS))

$(BUILD)/tests/ipfix/%: lib/ipfix/tests/%.c lib/tests/hm_test.h $(HM_IPFIX_LIB) $(BUILD)/libhopmark.a
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) $(HM_IPFIX_CFLAGS) -Ilib/tests \
		-DHM_IPFIX_XML='"$(CURDIR)/lib/ipfix/hopmark-ipfix.xml"' \
		$< -o $@ $(HM_IPFIX_LIB) $(BUILD)/libhopmark.a -lcmocka $(HM_LDLIBS) $(HM_IPFIX_LDLIBS)

ipfix-tests: $(HM_IPFIX_TESTS)
	prove -v $(HM_IPFIX_TESTS)

HM_TESTS	+= $(HM_IPFIX_TESTS)
HM_TEST_DEPS	+= $(HM_IPFIX_TESTS)
