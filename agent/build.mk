# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# hopmarkd, the per-node agent (see Documentation/agent.rst). Netlink
# (the qdisc dump, the kernel module's generic netlink family) goes through
# libmnl, like the rest of hopmark (HM_LDLIBS); its Prometheus metrics
# (metrics.c) through build/libhopmark-prom.a and libmicrohttpd
# (HM_PROM_LDLIBS, lib/common/build.mk).
#
#   make hopmarkd        build/hopmarkd
#   make install-agent   binary, man page and systemd unit under $(DESTDIR)

HM_LIB		?= $(BUILD)/libhopmark.a

AGENT_SRCS	:= $(wildcard agent/*.c)
AGENT_OBJS	:= $(patsubst agent/%.c,$(BUILD)/obj/agent/%.o,$(AGENT_SRCS))
AGENT_BIN	:= $(BUILD)/hopmarkd

.PHONY: hopmarkd install-agent
all: $(AGENT_BIN)
install: install-agent
hopmarkd: $(AGENT_BIN)

$(BUILD)/obj/agent:
	mkdir -p $@

# The IPFIX exporter (lib/ipfix/ipfix_export.c via pbt_events.c) uses libfixbuf through
# build/libhopmark-ipfix.a (lib/ipfix/build.mk): hopmarkd links GLib.
$(BUILD)/obj/agent/%.o: agent/%.c agent/hopmarkd.h $(HM_LIB_HDRS) | $(BUILD)/obj/agent
	$(CC) $(HM_CFLAGS) $(HM_IPFIX_CFLAGS) -c -o $@ $<

$(AGENT_BIN): $(AGENT_OBJS) $(HM_IPFIX_LIB) $(HM_PROM_LIB) $(HM_LIB)
	$(CC) $(HM_CFLAGS) -o $@ $(AGENT_OBJS) $(HM_IPFIX_LIB) $(HM_PROM_LIB) $(HM_LIB) \
		$(HM_LDLIBS) $(HM_IPFIX_LDLIBS) $(HM_PROM_LDLIBS)

install-agent: $(AGENT_BIN)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(UNITDIR)
	install -m 0755 $(AGENT_BIN) $(DESTDIR)$(SBINDIR)/hopmarkd
	install -m 0644 agent/hopmarkd.8 $(DESTDIR)$(MANDIR)/man8/hopmarkd.8
	sed 's|@SBINDIR@|$(SBINDIR)|g' agent/hopmarkd.service > \
		$(DESTDIR)$(UNITDIR)/hopmarkd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/hopmarkd.service
