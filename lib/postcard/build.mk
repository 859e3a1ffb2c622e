# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/postcard/: postcards, what one node exports about one packet out of
# band (the kernel module's DEX, SRH O-flag, E2E and Incremental Trace
# events), and their JSON form (Documentation/postcards.rst).

HM_LIB_SRCS	+= $(wildcard lib/postcard/*.c)
