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
 * Lines that are not path objects are skipped, never guessed at: the
 * first five are named on standard error, then how many were skipped.
 *
 * Return: the exit status: 0 when at least one path was shown; 1 when
 * FILE cannot be read, is a directory or holds no path; 2 for bad usage
 * (an unknown option among them).
 */
int hmc_show_main(int argc, char **argv);

/**
 * hmc_show_stream() - print the paths and flows of JSON lines
 * @in:		the lines
 * @out:	where the tables go
 * @paths:	print every packet's table
 * @flows:	print the per-flow summary
 * @shown:	if not NULL, set to the number of path objects read
 *
 * Return: lines that were not path objects (skipped).
 */
unsigned long hmc_show_stream(FILE *in, FILE *out, int paths, int flows,
			      unsigned long *shown);

#endif /* __HOPMARK_COLLECTOR_SHOW_H */
