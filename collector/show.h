/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * show.h - `hopmark-collector show`: the JSON lines of out_json.c as
 * tables for people: each packet's path, hop by hop, then one summary
 * line per flow with its drops located.
 */
#ifndef __HOPMARK_COLLECTOR_SHOW_H
#define __HOPMARK_COLLECTOR_SHOW_H

#include <stdio.h>

/**
 * hmc_show_main() - hopmark-collector show [ --paths | --flows ] [ FILE | - ]
 * @argc:	arguments, "show" first
 * @argv:	their strings
 *
 * Lines that are not path objects are counted and named on standard
 * error, never guessed at.
 *
 * Return: the exit status: 0; 1 when FILE cannot be read; 2 for bad usage.
 */
int hmc_show_main(int argc, char **argv);

/**
 * hmc_show_stream() - print the paths and flows of JSON lines
 * @in:		the lines
 * @out:	where the tables go
 * @paths:	print every packet's table
 * @flows:	print the per-flow summary
 *
 * Return: lines that were not path objects.
 */
unsigned long hmc_show_stream(FILE *in, FILE *out, int paths, int flows);

#endif /* __HOPMARK_COLLECTOR_SHOW_H */
