# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Namespace selftests (tier 3) and the demo. Each test is an executable
# script printing TAP; it builds its own 5-node topology (selftests/lib.sh)
# with a unique namespace prefix and removes it on exit. Not root or no
# network namespaces: "1..0 # SKIP" and exit 4 (kselftest).

NET_TESTS := \
	selftests/net/test_trace_fields.sh \
	selftests/net/test_capture.sh \
	selftests/net/test_stock_attach.sh \
	selftests/net/test_edge.sh \
	selftests/net/test_gso.sh \
	selftests/net/test_queue_depth.sh \
	selftests/net/test_link_programs.sh \
	selftests/net/test_gone_ifaces.sh \
	selftests/net/test_netns_exec.sh \
	selftests/net/test_cli_json_errors.sh \
	selftests/net/test_cli_docs.sh \
	selftests/net/test_decode_dex.sh \
	selftests/net/test_int_decode.sh \
	selftests/net/test_int_dissector.sh \
	selftests/net/test_non_ether.sh \
	selftests/net/test_pint.sh \
	selftests/net/test_pint_ifaces.sh \
	selftests/net/test_int.sh \
	selftests/net/test_int_cli.sh \
	selftests/net/test_pbt_cli.sh \
	selftests/net/test_pbt_mark.sh \
	selftests/net/test_tc_chain.sh \
	selftests/net/test_agent_output.sh \
	selftests/net/test_monitor_binary.sh \
	selftests/net/test_agent_single.sh \
	selftests/net/test_transit_hook.sh \
	selftests/net/test_transit_inplace.sh \
	selftests/net/test_budget.sh \
	selftests/net/test_budget_warn.sh \
	selftests/net/test_collector_input.sh \
	selftests/net/test_collector_show.sh \
	selftests/net/test_int_report.sh \
	selftests/net/test_int_monitor.sh \
	selftests/net/test_int_drop.sh \
	selftests/net/test_int_gso.sh \
	selftests/net/test_ipfix_interop.sh \
	selftests/net/test_metrics.sh \
	selftests/net/test_pbt_e2e.sh \
	selftests/net/test_collector_pg.sh \
	selftests/net/test_collector_broker.sh \
	selftests/net/test_collector_ipfix_out.sh \
	selftests/net/test_ipfix_refresh.sh \
	selftests/net/test_pbt_template.sh

HM_TESTS += $(addprefix $(CURDIR)/,$(NET_TESTS))

# test_int_report.sh feeds hopmarkd's INT exporter through the node's pinned
# int_events without the INT datapath: int_feed loads int_feed.bpf.o (the
# maps of bpf/int_maps.bpf.h) and runs it with BPF_PROG_TEST_RUN.
HM_NET_FEED	:= $(BUILD)/tests/net/int_feed
HM_NET_FEED_OBJ	:= $(BUILD)/tests/net/int_feed.bpf.o

$(HM_NET_FEED_OBJ): selftests/net/int_feed.bpf.c $(HM_BPF_HDRS)
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(HM_NET_FEED): selftests/net/int_feed.c $(HM_LIB) $(HM_LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB) $(HM_LDLIBS)

HM_TEST_DEPS	+= $(HM_NET_FEED) $(HM_NET_FEED_OBJ)

.PHONY: demo check-net
demo: deps
	$(MAKE) --no-print-directory all
	bash selftests/demo.sh

# Only this tier: make check-net
check-net: all
	prove -v --timer $(addprefix $(CURDIR)/,$(NET_TESTS))

# The INT drop reports' test helper (selftests/net/test_int_drop.sh).
HM_INT_DROP_TOOL := $(BUILD)/tests/hm_int_drop_tool
$(HM_INT_DROP_TOOL): selftests/net/hm_int_drop_tool.c $(HM_LIB)
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB) $(HM_LDLIBS)
all: $(HM_INT_DROP_TOOL)
HM_TEST_DEPS += $(HM_INT_DROP_TOOL)
HM_TC_DROP_OBJ := $(BUILD)/tests/hm_tc_drop.bpf.o
$(HM_TC_DROP_OBJ): selftests/net/hm_tc_drop.bpf.c
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
all: $(HM_TC_DROP_OBJ)
HM_TEST_DEPS += $(HM_TC_DROP_OBJ)
# test_pbt_e2e.sh's drop on the link: after the PBT-M egress postcard.
HM_PBT_LDROP_OBJ := $(BUILD)/tests/pbt_link_drop.bpf.o
$(HM_PBT_LDROP_OBJ): selftests/net/pbt_link_drop.bpf.c
	@mkdir -p $(@D)
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@
all: $(HM_PBT_LDROP_OBJ)
HM_TEST_DEPS += $(HM_PBT_LDROP_OBJ)
