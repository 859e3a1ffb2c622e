/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * int_names.h - display names of the INT datapath counters (int_names.c).
 */
#ifndef __HOPMARK_INT_NAMES_H
#define __HOPMARK_INT_NAMES_H

#include "int/int_maps.h"

/* Name of each enum int_counter, indexed by counter ("src_ok", ...). */
extern const char *const int_counter_names[INT_CNT_MAX];

#endif /* __HOPMARK_INT_NAMES_H */
