# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/select/: which packets a telemetry source instruments. select.h is
# the libc-free matcher shared by BPF and userspace; sel_text.c holds the
# text forms of its rules (parsed and printed back the same way), shared
# by `hopmark int watch` and `hopmark postcard watch` / `template`.

HM_LIB_SRCS	+= $(wildcard lib/select/*.c)
