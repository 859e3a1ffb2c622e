# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# hopmark, the ip-style command: iproute2-ext/*.c -> build/obj/cli/*.o ->
# build/hopmark, linked with libhopmark ($(HM_LIB), lib/build.mk). The BPF
# objects come embedded with libhopmark's load/attach layer
# (lib/common/bpf_attach.c and its skeletons, lib/common/build.mk), so the
# binary needs no object files at run time.

HM_CLI		:= $(BUILD)/hopmark
HM_CLI_SRCS	:= $(wildcard iproute2-ext/*.c)
HM_CLI_OBJS	:= $(patsubst iproute2-ext/%.c,$(BUILD)/obj/cli/%.o,$(HM_CLI_SRCS))
HM_CLI_HDRS	:= $(wildcard iproute2-ext/*.h) $(HM_LIB_HDRS)

.PHONY: cli install-cli
all: $(HM_CLI)
cli: $(HM_CLI)
install: install-cli

$(BUILD)/obj/cli:
	mkdir -p $@

$(BUILD)/obj/cli/%.o: iproute2-ext/%.c $(HM_CLI_HDRS) | $(BUILD)/obj/cli
	$(CC) $(HM_CFLAGS) -Iiproute2-ext -c $< -o $@

$(HM_CLI): $(HM_CLI_OBJS) $(HM_LIB)
	$(CC) $(HM_CFLAGS) -o $@ $(HM_CLI_OBJS) $(HM_LIB) $(HM_LDLIBS)

install-cli: $(HM_CLI)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8
	install -m 0755 $(HM_CLI) $(DESTDIR)$(SBINDIR)/hopmark
	install -m 0644 iproute2-ext/hopmark.8 $(DESTDIR)$(MANDIR)/man8/hopmark.8
	install -m 0644 iproute2-ext/hopmark-pint.8 $(DESTDIR)$(MANDIR)/man8/hopmark-pint.8
	install -m 0644 iproute2-ext/hopmark-budget.8 $(DESTDIR)$(MANDIR)/man8/hopmark-budget.8
	install -m 0644 iproute2-ext/hopmark-int.8 $(DESTDIR)$(MANDIR)/man8/hopmark-int.8
	install -m 0644 iproute2-ext/hopmark-postcard.8 $(DESTDIR)$(MANDIR)/man8/hopmark-postcard.8
