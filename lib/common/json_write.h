/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * json_write.h - a JSON writer without a document tree: values are
 * appended to a caller's buffer as they are produced, in the bytes json-c
 * prints with JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE (no
 * spaces; keys in the order added; integers in decimal; strings escaped
 * as json-c escapes them). hopmark's JSON lines (record_json.c) are
 * written with it so that a line costs no allocation; the unit tests
 * check its bytes against json-c's for every kind of value.
 *
 * The writer never writes past its buffer: when the output does not fit,
 * it keeps counting the bytes it would have written (like snprintf(3)),
 * so the caller can grow the buffer to hm_jw_len() and write again.
 */
#ifndef __HOPMARK_JSON_WRITE_H
#define __HOPMARK_JSON_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <linux/types.h>

/**
 * struct hm_jw - a JSON writer on a caller's buffer
 * @buf:	start of the buffer
 * @size:	bytes at @buf
 * @len:	bytes produced so far; those beyond @size were not written
 * @comma:	the next member or element needs a ',' before it
 */
struct hm_jw {
	char	*buf;
	size_t	size;
	size_t	len;
	bool	comma;
};

/**
 * hm_jw_init() - start writing at @buf
 * @w:		writer
 * @buf:	output buffer (may be NULL when @size is 0: count only)
 * @size:	bytes at @buf
 */
static inline void hm_jw_init(struct hm_jw *w, char *buf, size_t size)
{
	w->buf = buf;
	w->size = size;
	w->len = 0;
	w->comma = false;
}

/**
 * hm_jw_len() - bytes the output needs
 * @w:	writer
 *
 * Return: bytes produced; more than the buffer's size if it did not fit.
 */
static inline size_t hm_jw_len(const struct hm_jw *w)
{
	return w->len;
}

/* Append @n raw bytes; what does not fit is cut off. */
static inline void hm_jw_raw(struct hm_jw *w, const char *s, size_t n)
{
	if (w->len + n <= w->size)
		memcpy(w->buf + w->len, s, n);
	else if (w->len < w->size)
		memcpy(w->buf + w->len, s, w->size - w->len);
	w->len += n;
}

static inline void hm_jw_char(struct hm_jw *w, char c)
{
	if (w->len < w->size)
		w->buf[w->len] = c;
	w->len++;
}

/**
 * hm_jw_str() - append a JSON string, escaped as json-c escapes it
 * @w:	writer
 * @s:	NUL-terminated bytes (not checked for UTF-8, like json-c)
 *
 * '"' and '\' get a backslash; \b \n \r \t \f their short forms; the
 * other bytes below 0x20 become \u00XX (lowercase hex); '/' and every
 * other byte are copied (NOSLASHESCAPE).
 */
void hm_jw_str(struct hm_jw *w, const char *s);

/**
 * hm_jw_hex() - append octets as a JSON string of lowercase hex digits
 * @w:	writer
 * @d:	the octets, in the order they are written (wire order for a packet)
 * @n:	how many; 0 gives ""
 *
 * Two digits an octet, no separator and no "0x" (e.g. "45000054").
 */
void hm_jw_hex(struct hm_jw *w, const __u8 *d, size_t n);

/**
 * hm_jw_u64() - append an unsigned integer in decimal
 * @w:	writer
 * @v:	value
 */
void hm_jw_u64(struct hm_jw *w, __u64 v);

/**
 * hm_jw_s64() - append a signed integer in decimal ('-' when negative)
 * @w:	writer
 * @v:	value
 */
void hm_jw_s64(struct hm_jw *w, __s64 v);

/* Container delimiters; the first member or element follows without ','. */
static inline void hm_jw_open(struct hm_jw *w, char c)
{
	hm_jw_char(w, c);
	w->comma = false;
}

static inline void hm_jw_close(struct hm_jw *w, char c)
{
	hm_jw_char(w, c);
	w->comma = true;
}

/* Separator before an array element. */
static inline void hm_jw_elem(struct hm_jw *w)
{
	if (w->comma)
		hm_jw_char(w, ',');
	w->comma = true;
}

/*
 * hm_jw_key() - the separator and "key": of an object member
 * @key:	a string literal without characters to escape (the keys of
 *		hopmark's formats are lowercase ASCII and '_')
 */
#define hm_jw_key(w, key)					\
	do {							\
		if ((w)->comma)					\
			hm_jw_raw((w), ",\"" key "\":", sizeof(key) + 3);	\
		else						\
			hm_jw_raw((w), "\"" key "\":", sizeof(key) + 2);	\
		(w)->comma = true;				\
	} while (0)

static inline void hm_jw_null(struct hm_jw *w)
{
	hm_jw_raw(w, "null", 4);
}

static inline void hm_jw_bool(struct hm_jw *w, bool b)
{
	if (b)
		hm_jw_raw(w, "true", 4);
	else
		hm_jw_raw(w, "false", 5);
}

/* An unsigned member, null when @v equals @unavailable. */
#define hm_jw_key_u64(w, key, v, unavailable)			\
	do {							\
		__u64 __v = (v);				\
								\
		hm_jw_key(w, key);				\
		if (__v == (__u64)(unavailable))		\
			hm_jw_null(w);				\
		else						\
			hm_jw_u64(w, __v);			\
	} while (0)

/* A signed member, null unless @ok. */
#define hm_jw_key_s64(w, key, v, ok)				\
	do {							\
		hm_jw_key(w, key);				\
		if (ok)						\
			hm_jw_s64(w, (v));			\
		else						\
			hm_jw_null(w);				\
	} while (0)

#endif /* __HOPMARK_JSON_WRITE_H */
