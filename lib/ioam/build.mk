# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/ioam/: IOAM (RFC 9197, RFC 9326, RFC 9486): the wire format of its
# options (ioam6.h), the trace decoder, and the trace record with its JSON,
# table and summary renderings.

HM_LIB_SRCS	+= $(wildcard lib/ioam/*.c)
