# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/ipv6/: the IPv6 wire format (ipv6.h: header, extension headers,
# Hop-by-Hop options and the limits a Linux receiver enforces) and the
# packet walk that finds IOAM options and the upper layer (ipv6_parse.c).

HM_LIB_SRCS	+= $(wildcard lib/ipv6/*.c)
