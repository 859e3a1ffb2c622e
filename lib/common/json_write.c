// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * json_write.c - strings and integers of the DOM-free JSON writer
 * (json_write.h), in the bytes json-c 0.16 prints them.
 */
#include "common/json_write.h"

/* See json_write.h. */
void hm_jw_str(struct hm_jw *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s;
	unsigned char c;
	char esc[6];

	hm_jw_char(w, '"');
	for (; (c = *s); s++) {
		size_t n = 2;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		hm_jw_raw(w, run, s - run);
		run = s + 1;
		esc[0] = '\\';
		switch (c) {
		case '"':  esc[1] = '"'; break;
		case '\\': esc[1] = '\\'; break;
		case '\b': esc[1] = 'b'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		case '\t': esc[1] = 't'; break;
		case '\f': esc[1] = 'f'; break;
		default:
			esc[1] = 'u';
			esc[2] = '0';
			esc[3] = '0';
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 0xf];
			n = 6;
		}
		hm_jw_raw(w, esc, n);
	}
	hm_jw_raw(w, run, s - run);
	hm_jw_char(w, '"');
}

/* See json_write.h. */
void hm_jw_hex(struct hm_jw *w, const __u8 *d, size_t n)
{
	static const char hex[] = "0123456789abcdef";

	hm_jw_char(w, '"');
	while (n--) {
		hm_jw_char(w, hex[*d >> 4]);
		hm_jw_char(w, hex[*d++ & 0xf]);
	}
	hm_jw_char(w, '"');
}

/* See json_write.h. */
void hm_jw_u64(struct hm_jw *w, __u64 v)
{
	char d[20], *p = d + sizeof(d);

	/* Two digits per division: half the divisions of one at a time. */
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";

	while (v >= 100) {
		unsigned int r = v % 100;

		v /= 100;
		p -= 2;
		p[0] = pairs[2 * r];
		p[1] = pairs[2 * r + 1];
	}
	if (v >= 10) {
		p -= 2;
		p[0] = pairs[2 * v];
		p[1] = pairs[2 * v + 1];
	} else {
		*--p = '0' + v;
	}
	hm_jw_raw(w, p, d + sizeof(d) - p);
}

/* See json_write.h. */
void hm_jw_s64(struct hm_jw *w, __s64 v)
{
	if (v < 0) {
		hm_jw_char(w, '-');
		/* -(v + 1) + 1 has no overflow, even for INT64_MIN. */
		hm_jw_u64(w, (__u64)(-(v + 1)) + 1);
		return;
	}
	hm_jw_u64(w, v);
}
