/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_names.h - display names of the PINT datapath counters (pint_names.c).
 */
#ifndef __HOPMARK_PINT_NAMES_H
#define __HOPMARK_PINT_NAMES_H

#include "pint/pint_maps.h"

/* Name of each enum pint_counter, indexed by counter ("source_ok", ...). */
extern const char *const pint_counter_names[PINT_CNT_MAX];

#endif /* __HOPMARK_PINT_NAMES_H */
