// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * sel_text.c - the text forms of selection rules (sel_text.h), shared by
 * `hopmark int watch`, `hopmark postcard watch` and `hopmark postcard
 * template` and their tests.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hm_text.h"
#include "select/sel_text.h"

/*
 * The shared helpers of common/hm_text.h under the short names the rules
 * below call them by.
 */
#define fail hm_fail
#define parse_num hm_parse_num
#define append hm_append

/* iproute2's abbreviation: @prefix is a non-empty prefix of @word. */
static int abbrev(const char *prefix, const char *word)
{
	size_t len = strlen(prefix);

	return len && len <= strlen(word) && !strncmp(prefix, word, len);
}

int hm_sel_addr_parse(const char *s, __u8 *family, __u8 addr[16])
{
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, s, addr) == 1) {
		*family = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, s, addr) == 1) {
		*family = 6;
		return 0;
	}
	return -EINVAL;
}

int hm_sel_prefix_parse(const char *s, __u8 *family, __u8 addr[16], __u8 *plen,
			char *msg, size_t len)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash;
	unsigned long l, max;
	__u32 i;

	if (strlen(s) >= sizeof(buf))
		return fail(-EINVAL, msg, len, "not an IPv4 or IPv6 prefix (ADDR[/LEN])");
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	if (hm_sel_addr_parse(buf, family, addr))
		return fail(-EINVAL, msg, len, "not an IPv4 or IPv6 prefix (ADDR[/LEN])");
	max = *family == 4 ? 32 : 128;
	l = max;
	if (slash && parse_num(slash, max, &l))
		return fail(-EINVAL, msg, len, "the prefix length is 0..%lu", max);
	for (i = l; i < max; i++)
		if (addr[i / 8] & (0x80 >> (i % 8)))
			return fail(-EINVAL, msg, len, "the address has bits set beyond the prefix "
				    "length");
	*plen = l;
	return 0;
}

int hm_sel_port_parse(const char *s, __be16 *port, __be16 *mask, char *msg, size_t len)
{
	unsigned long p, m = 0xffff;
	char buf[32], *slash;

	if (strlen(s) >= sizeof(buf))
		return fail(-EINVAL, msg, len, "a port is PORT[/MASK], 16 bits each");
	strcpy(buf, s);
	slash = strchr(buf, '/');
	if (slash)
		*slash++ = '\0';
	if (parse_num(buf, 0xffff, &p) || (slash && parse_num(slash, 0xffff, &m)))
		return fail(-EINVAL, msg, len, "a port is PORT[/MASK], 16 bits each (0..65535)");
	if (!m)
		return fail(-EINVAL, msg, len, "a port mask of 0 matches any port: leave the port out");
	if (p & ~m)
		return fail(-EINVAL, msg, len, "port %lu has bits outside the mask 0x%04lx: no "
			    "packet could match", p, m);
	*port = htons(p);
	*mask = htons(m);
	return 0;
}

/* "src PREFIX" / "dst PREFIX" into @r; both of one family. */
static int words_prefix(const char *s, struct hm_sel_rule *r, int src, char *msg, size_t len)
{
	__u8 family, addr[16], plen;
	int err;

	err = hm_sel_prefix_parse(s, &family, addr, &plen, msg, len);
	if (err)
		return err;
	if (r->family && r->family != family)
		return fail(-EINVAL, msg, len, "src and dst are of different families");
	r->family = family;
	memcpy(src ? r->saddr : r->daddr, addr, 16);
	if (src)
		r->src_plen = plen;
	else
		r->dst_plen = plen;
	return 0;
}

static int words_proto(const char *s, __u8 *proto, char *msg, size_t len)
{
	unsigned long v;
	int err;

	if (!strcmp(s, "tcp")) {
		*proto = 6;
		return 0;
	}
	if (!strcmp(s, "udp")) {
		*proto = 17;
		return 0;
	}
	err = parse_num(s, 255, &v);
	if (err == -EINVAL)
		return fail(-EINVAL, msg, len, "proto (tcp, udp or an IP protocol number) must be "
			    "a number");
	if (err)
		return fail(-EINVAL, msg, len, "proto (tcp, udp or an IP protocol number) must be "
			    "at most 255 (0xff)");
	if (!v)
		return fail(-EINVAL, msg, len, "proto is tcp, udp or 1..255 (leave it out for any)");
	*proto = v;
	return 0;
}

int hm_sel_words_parse(int argc, char **argv, __u32 opts, struct hm_sel_rule *r,
		       struct hm_sel_words *w, char *msg, size_t len)
{
	static const char *const keys[] = { "src", "dst", "proto", "sport", "dport" };
	unsigned int k;
	int i = 0, err;

	memset(r, 0, sizeof(*r));
	memset(w, 0, sizeof(*w));
	while (i < argc) {
		if ((opts & HM_SEL_W_SYNTHETIC) && abbrev(argv[i], "synthetic")) {
			r->flags |= HM_SEL_F_SYNTHETIC;
			i++;
			continue;
		}
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (abbrev(argv[i], keys[k]))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]))
			break;
		if (i + 1 >= argc) {
			w->bad = argv[i];
			w->used = i;
			return fail(-ENODATA, msg, len, "\"%s\" needs a value", argv[i]);
		}
		w->bad = argv[i + 1];
		if (w->seen & (1U << k)) {
			w->used = i;
			return fail(-EEXIST, msg, len, "duplicate \"%s\": \"%s\" is the second value",
				    keys[k], argv[i + 1]);
		}
		w->seen |= 1U << k;
		switch (k) {
		case 0:
		case 1:
			err = words_prefix(argv[i + 1], r, k == 0, msg, len);
			break;
		case 2:
			err = words_proto(argv[i + 1], &r->proto, msg, len);
			break;
		case 3:
			err = hm_sel_port_parse(argv[i + 1], &r->sport, &r->sport_mask, msg, len);
			w->port_word = argv[i + 1];
			break;
		default:
			err = hm_sel_port_parse(argv[i + 1], &r->dport, &r->dport_mask, msg, len);
			w->port_word = argv[i + 1];
			break;
		}
		if (err) {
			w->used = i;
			return err;
		}
		i += 2;
	}
	w->bad = NULL;
	w->used = i;
	return 0;
}

int hm_sel_rule_check(const struct hm_sel_rule *r, char *msg, size_t len)
{
	__u32 max = r->family == 4 ? 32 : 128;

	if (r->family != 0 && r->family != 4 && r->family != 6)
		return fail(-EINVAL, msg, len, "family %u is neither 4 nor 6", r->family);
	if (!r->family && (r->src_plen || r->dst_plen))
		return fail(-EINVAL, msg, len, "a prefix needs its family");
	if (r->src_plen > max || r->dst_plen > max)
		return fail(-EINVAL, msg, len, "a prefix length is above %u", max);
	if ((r->sport_mask || r->dport_mask) && r->proto != 6 && r->proto != 17)
		return fail(-EINVAL, msg, len, "ports need proto tcp or udp");
	if ((r->sport & ~r->sport_mask) || (r->dport & ~r->dport_mask))
		return fail(-EINVAL, msg, len, "a port has bits outside its mask");
	if (r->flags & ~HM_SEL_F_SYNTHETIC)
		return fail(-EINVAL, msg, len, "unknown rule flags 0x%x", r->flags);
	return 0;
}

int hm_sel_rule_to_key(const struct hm_sel_rule *r, struct hm_flow_key *k, char *msg,
		       size_t len)
{
	__u32 max = r->family == 4 ? 32 : 128;
	int err;

	err = hm_sel_rule_check(r, msg, len);
	if (err)
		return err;
	if (!r->family || r->src_plen != max || r->dst_plen != max)
		return fail(-EINVAL, msg, len, "a flow needs src and dst as whole addresses "
			    "(no prefix length, or /%u)", r->family ? max : 32);
	if (!r->proto)
		return fail(-EINVAL, msg, len, "a flow needs its proto");
	if ((r->proto == 6 || r->proto == 17) &&
	    (r->sport_mask != 0xffff || r->dport_mask != 0xffff))
		return fail(-EINVAL, msg, len, "a TCP or UDP flow needs sport and dport, "
			    "without a mask");
	if (r->flags)
		return fail(-EINVAL, msg, len, "a flow has no rule flags");
	memset(k, 0, sizeof(*k));
	k->family = r->family;
	k->proto = r->proto;
	k->sport = r->sport;
	k->dport = r->dport;
	memcpy(k->saddr, r->saddr, 16);
	memcpy(k->daddr, r->daddr, 16);
	return 0;
}

void hm_sel_key_to_rule(const struct hm_flow_key *k, struct hm_sel_rule *r)
{
	__u8 max = k->family == 4 ? 32 : 128;

	memset(r, 0, sizeof(*r));
	r->family = k->family;
	r->proto = k->proto;
	r->src_plen = max;
	r->dst_plen = max;
	if (k->proto == 6 || k->proto == 17) {
		r->sport = k->sport;
		r->dport = k->dport;
		r->sport_mask = 0xffff;
		r->dport_mask = 0xffff;
	}
	memcpy(r->saddr, k->saddr, 16);
	memcpy(r->daddr, k->daddr, 16);
}

int hm_sel_add(struct hm_sel_cfg *c, const struct hm_sel_rule *r, char *msg, size_t len)
{
	__u32 i;

	for (i = 0; i < c->nr_rules && i < HM_SEL_MAX_RULES; i++)
		if (!memcmp(&c->rules[i], r, sizeof(*r)))
			return fail(-EEXIST, msg, len, "the watchlist has this rule already, "
				    "index %u", i);
	if (c->nr_rules >= HM_SEL_MAX_RULES)
		return fail(-ENOSPC, msg, len, "the watchlist is full (%u rules)", HM_SEL_MAX_RULES);
	c->rules[c->nr_rules] = *r;
	return (int)c->nr_rules++;
}

int hm_sel_del(struct hm_sel_cfg *c, __u32 index)
{
	if (index >= c->nr_rules || index >= HM_SEL_MAX_RULES)
		return -ENOENT;
	memmove(&c->rules[index], &c->rules[index + 1],
		(c->nr_rules - index - 1) * sizeof(c->rules[0]));
	c->nr_rules--;
	memset(&c->rules[c->nr_rules], 0, sizeof(c->rules[0]));
	return 0;
}

static void append_prefix(char *buf, size_t len, size_t *off, const char *key, __u8 family,
			  const __u8 *addr, __u8 plen)
{
	char a[INET6_ADDRSTRLEN];

	inet_ntop(family == 4 ? AF_INET : AF_INET6, addr, a, sizeof(a));
	append(buf, len, off, "%s%s %s/%u", *off ? " " : "", key, a, plen);
}

static void append_port(char *buf, size_t len, size_t *off, const char *key, __be16 port,
			__be16 mask)
{
	if (!mask)
		return;
	if (mask == 0xffff)
		append(buf, len, off, "%s%s %u", *off ? " " : "", key, ntohs(port));
	else
		append(buf, len, off, "%s%s %u/0x%04x", *off ? " " : "", key, ntohs(port),
		       ntohs(mask));
}

const char *hm_sel_rule_format(const struct hm_sel_rule *r, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	/* A family with two /0 prefixes is printed with the source one. */
	if (r->family && (r->src_plen || !r->dst_plen))
		append_prefix(buf, len, &off, "src", r->family, r->saddr, r->src_plen);
	if (r->family && r->dst_plen)
		append_prefix(buf, len, &off, "dst", r->family, r->daddr, r->dst_plen);
	if (r->proto == 6)
		append(buf, len, &off, "%sproto tcp", off ? " " : "");
	else if (r->proto == 17)
		append(buf, len, &off, "%sproto udp", off ? " " : "");
	else if (r->proto)
		append(buf, len, &off, "%sproto %u", off ? " " : "", r->proto);
	append_port(buf, len, &off, "sport", r->sport, r->sport_mask);
	append_port(buf, len, &off, "dport", r->dport, r->dport_mask);
	if (r->flags & HM_SEL_F_SYNTHETIC)
		append(buf, len, &off, "%ssynthetic", off ? " " : "");
	if (!off)
		snprintf(buf, len, "any");
	return buf;
}
