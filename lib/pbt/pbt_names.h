/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pbt_names.h - display names of the PBT-M datapath counters (pbt_names.c).
 */
#ifndef __HOPMARK_PBT_NAMES_H
#define __HOPMARK_PBT_NAMES_H

#include "pbt/pbt_maps.h"

/* Name of each enum pbt_counter, indexed by counter ("marked", ...). */
extern const char *const pbt_counter_names[PBT_CNT_MAX];

#endif /* __HOPMARK_PBT_NAMES_H */
