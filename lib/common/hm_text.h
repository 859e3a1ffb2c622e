/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * hm_text.h - helpers shared by the settings parsers of lib/ (int/,
 * pbt/, select/): a message-filling error return, the number parser
 * whose rejections every `hopmark ... set` / `watch` message names, and
 * the bounded text appender of their *_format() functions.
 */
#ifndef HM_COMMON_TEXT_H
#define HM_COMMON_TEXT_H

#include <stddef.h>

/**
 * hm_fail() - fill @msg with a printf-formatted reason and return @err
 * @err: the negative errno to return (-EINVAL, -ERANGE, -EDOM...)
 * @msg: the caller's message buffer, or NULL for no message
 * @len: size of @msg in bytes (0: no message)
 * @fmt: printf format of the reason
 *
 * Lets a parser report why it refused an input in one statement; the
 * message is truncated to @len - 1 characters and always terminated.
 *
 * Return: @err.
 */
int hm_fail(int err, char *msg, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * hm_parse_num() - parse an unsigned number (decimal, or 0x hex / 0 octal
 *	as strtoul() base 0 reads them) up to @max
 * @s: the text; no sign, no leading blank, nothing after the digits
 * @max: the largest value accepted
 * @v: where the value goes (written even when out of range)
 *
 * Return: 0, -EINVAL if @s is not a number, -ERANGE if it exceeds @max.
 */
int hm_parse_num(const char *s, unsigned long max, unsigned long *v);

/**
 * hm_append() - append printf-formatted text to @buf at *@off
 * @buf: the text being built, always NUL-terminated
 * @len: size of @buf in bytes
 * @off: offset of the terminating NUL in @buf; advanced by what was written
 * @fmt: printf format
 *
 * Stops at the end of @buf: the text is truncated, never overrun, and
 * *@off stays at most @len - 1.
 */
void hm_append(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* HM_COMMON_TEXT_H */
