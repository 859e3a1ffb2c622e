# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# BPF_PROG_TEST_RUN tier: selftests/bpf/*.c -> build/tests/bpf_test_run, a
# TAP program that loads the datapath objects through their skeletons
# (build/bpf/*.skel.h) into a private bpffs and netns and runs crafted
# frames through every program. Needs root; prints "1..0 # SKIP" without BPF.
# `make bpf-tests` runs it alone; `build/tests/bpf_test_run NAME` runs only
# the tests whose name contains NAME.

HM_BPFT_SRCS	:= $(wildcard selftests/bpf/*.c)
HM_BPFT_OBJS	:= $(patsubst selftests/bpf/%.c,$(BUILD)/obj/selftests/bpf/%.o,$(HM_BPFT_SRCS))
HM_BPFT_SKELS	:= $(patsubst %,$(BUILD)/bpf/%.skel.h,hopmark_encap hopmark_transit hopmark_decap pint \
					       hopmark_int hopmark_int_drop hopmark_int_xdp hopmark_pbt)
HM_BPFT_BIN	:= $(BUILD)/tests/bpf_test_run

.PHONY: bpf-tests

$(BUILD)/obj/selftests/bpf/%.o: selftests/bpf/%.c selftests/bpf/bpf_test.h \
		$(HM_LIB_HDRS) $(HM_BPFT_SKELS)
	@mkdir -p $(dir $@)
	$(CC) $(HM_CFLAGS) -Iselftests/bpf -c $< -o $@

$(HM_BPFT_BIN): $(HM_BPFT_OBJS) $(HM_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(HM_CFLAGS) $(HM_BPFT_OBJS) -o $@ $(HM_LIB) $(HM_LDLIBS)

bpf-tests: $(HM_BPFT_BIN)
	prove -v $(HM_BPFT_BIN)

HM_TESTS	+= $(HM_BPFT_BIN) $(CURDIR)/selftests/bpf/test_general_path.sh
HM_TEST_DEPS	+= $(HM_BPFT_BIN)
