# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# BPF datapath: bpf/NAME.bpf.c -> build/bpf/NAME.bpf.o (clang -target bpf)
# -> build/bpf/NAME.skel.h (bpftool gen skeleton). The objects also load
# with stock ip/tc; see Documentation/datapath.rst.

HM_BPF_NAMES	:= hopmark_maps hopmark_encap hopmark_transit hopmark_decap pint hopmark_int \
		   hopmark_int_drop hopmark_int_xdp hopmark_pbt
HM_BPF_OBJS	:= $(patsubst %,$(BUILD)/bpf/%.bpf.o,$(HM_BPF_NAMES))
HM_BPF_SKELS	:= $(patsubst %,$(BUILD)/bpf/%.skel.h,$(HM_BPF_NAMES))
HM_BPF_HDRS	:= $(wildcard bpf/*.bpf.h) $(HM_LIB_HDRS)

.PHONY: bpf install-bpf
all: $(HM_BPF_OBJS) $(HM_BPF_SKELS)
bpf: $(HM_BPF_OBJS) $(HM_BPF_SKELS)

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(HM_BPF_HDRS) | $(BUILD)/bpf
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/bpf/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(BPFTOOL) gen skeleton $< name $* > $@.tmp
	mv $@.tmp $@

install-bpf: $(HM_BPF_OBJS)
	install -d $(DESTDIR)$(BPFDIR)
	install -m 0644 $(HM_BPF_OBJS) $(DESTDIR)$(BPFDIR)/
