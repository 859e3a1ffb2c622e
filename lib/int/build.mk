# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/int/: P4.org INT v2.1 over TCP/UDP and Telemetry Report v2.0: the
# wire header (int.h) shared with bpf/int.bpf.c, the datapath's map
# contract (int_maps.h), and the userspace codecs. The unit tests
# lib/tests/test_int_*.c are picked up by lib/build.mk.

HM_LIB_SRCS	+= $(wildcard lib/int/*.c)

# The Wireshark dissector lib/int/hopmark-int.lua (Documentation/int.rst,
# "Wireshark dissector"). `make install-wireshark`, also part of `make
# install`, copies it to Wireshark's global Lua plugin folder, the one
# `tshark -G folders` names "Global Lua Plugins" (Debian 12:
# /usr/lib/x86_64-linux-gnu/wireshark/plugins). For one user only:
#   make install-wireshark WIRESHARK_LUA_DIR=$HOME/.local/lib/wireshark/plugins
WIRESHARK_LUA_DIR ?= $(or $(shell tshark -G folders 2>/dev/null | \
			sed -n 's/^Global Lua Plugins:[[:space:]]*//p'), \
			$(LIBDIR)/$(MULTIARCH)/wireshark/plugins)

.PHONY: install-wireshark
install: install-wireshark

install-wireshark:
	install -d $(DESTDIR)$(WIRESHARK_LUA_DIR)
	install -m 0644 lib/int/hopmark-int.lua $(DESTDIR)$(WIRESHARK_LUA_DIR)/hopmark-int.lua
