# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/pbt/: PBT-M, marking-based postcards: the datapath's map contract
# (pbt_maps.h) shared with bpf/hopmark_pbt.bpf.c, the packet ID, and the
# userspace settings and names. Unit tests lib/tests/test_pbt_*.c are
# picked up by lib/build.mk.

HM_LIB_SRCS	+= $(wildcard lib/pbt/*.c)
