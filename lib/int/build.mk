# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/int/: P4.org INT v2.1 over TCP/UDP and Telemetry Report v2.0: the
# wire header (int.h) shared with bpf/int.bpf.c, the datapath's map
# contract (int_maps.h), and the userspace codecs. The unit tests
# lib/tests/test_int_*.c are picked up by lib/build.mk.

HM_LIB_SRCS	+= $(wildcard lib/int/*.c)
