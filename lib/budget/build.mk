# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# lib/budget/: the in-band metadata budget model of seed 000 (header bytes
# against the MTU, metadata rate against export capacity) and the MTU fit
# of a configured INT-MD or IOAM trace. `hopmark budget` prints the model
# (iproute2-ext/budget.c, Documentation/budget.rst); the configuring
# commands warn with hm_budget_*_fit(). Unit test: lib/tests/test_budget.c,
# picked up by lib/build.mk.

HM_LIB_SRCS	+= $(wildcard lib/budget/*.c)
