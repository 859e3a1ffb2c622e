// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_ipfix_xml.c - lib/ipfix/hopmark-ipfix.xml, the IANA-style registry
 * of hopmark's enterprise elements, says what the model says: every
 * enterprise element of hm_ipfix_ie_defs() (ipfix_ie.h's HM_IE_* numbers)
 * has one record with its name, elementId, dataType, dataTypeSemantics,
 * units and the default PEN, and the file has no other record. Read twice:
 * with GLib's XML parser, record by record, and with libfixbuf's own
 * registry reader (fbInfoModelReadXMLFile()), as a collector would.
 */
#include <stdlib.h>
#include <glib.h>

#include "hm_test.h"
#include "ipfix/ipfix_model.h"

#define MAX_REC	64

struct xml_rec {
	char	name[64];
	char	type[32];
	char	sem[32];
	char	units[32];
	long	id;
	long	pen;
};

struct xml_state {
	struct xml_rec	rec[MAX_REC];
	int		n;
	bool		in_rec;
	char		elem[32];
};

static void x_start(GMarkupParseContext *c, const gchar *el, const gchar **an,
		    const gchar **av, gpointer u, GError **e)
{
	struct xml_state *s = u;
	const char *colon = strchr(el, ':');

	if (!strcmp(el, "record")) {
		assert_true(s->n < MAX_REC);
		memset(&s->rec[s->n], 0, sizeof(s->rec[0]));
		s->rec[s->n].id = s->rec[s->n].pen = -1;
		s->in_rec = true;
	}
	snprintf(s->elem, sizeof(s->elem), "%s", colon ? colon + 1 : el);
}

static void x_end(GMarkupParseContext *c, const gchar *el, gpointer u, GError **e)
{
	struct xml_state *s = u;

	if (!strcmp(el, "record")) {
		s->in_rec = false;
		s->n++;
	}
	s->elem[0] = 0;
}

static void x_text(GMarkupParseContext *c, const gchar *t, gsize len, gpointer u,
		   GError **e)
{
	struct xml_state *s = u;
	struct xml_rec *r = &s->rec[s->n];
	char buf[32];

	if (!s->in_rec || !len)
		return;
	snprintf(buf, sizeof(buf), "%.*s", (int)len, t);
	g_strstrip(buf);
	if (!buf[0])
		return;
	if (!strcmp(s->elem, "name"))
		snprintf(r->name, sizeof(r->name), "%s", buf);
	else if (!strcmp(s->elem, "dataType"))
		snprintf(r->type, sizeof(r->type), "%s", buf);
	else if (!strcmp(s->elem, "dataTypeSemantics"))
		snprintf(r->sem, sizeof(r->sem), "%s", buf);
	else if (!strcmp(s->elem, "units"))
		snprintf(r->units, sizeof(r->units), "%s", buf);
	else if (!strcmp(s->elem, "elementId"))
		r->id = strtol(buf, NULL, 10);
	else if (!strcmp(s->elem, "enterpriseId"))
		r->pen = strtol(buf, NULL, 10);
}

static const char *type_name(__u8 t)
{
	switch (t) {
	case FB_OCTET_ARRAY:	return "octetArray";
	case FB_UINT_8:		return "unsigned8";
	case FB_UINT_16:	return "unsigned16";
	case FB_UINT_32:	return "unsigned32";
	case FB_UINT_64:	return "unsigned64";
	case FB_IP6_ADDR:	return "ipv6Address";
	}
	return "?";
}

static const char *sem_name(__u32 flags)
{
	switch (FB_IE_SEMANTIC(flags)) {
	case 0:	return "default";
	case 1:	return "quantity";
	case 2:	return "totalCounter";
	case 4:	return "identifier";
	case 5:	return "flags";
	}
	return "?";
}

static const char *units_name(__u32 flags)
{
	switch (FB_IE_UNITS(flags)) {
	case 0:	return "";
	case 2:	return "octets";
	case 8:	return "nanoseconds";
	}
	return "?";
}

static void read_xml(struct xml_state *s)
{
	GMarkupParser p = { .start_element = x_start, .end_element = x_end,
			    .text = x_text };
	GMarkupParseContext *c;
	GError *err = NULL;
	gchar *text;
	gsize len;

	memset(s, 0, sizeof(*s));
	if (!g_file_get_contents(HM_IPFIX_XML, &text, &len, &err))
		fail_msg("%s: %s", HM_IPFIX_XML, err->message);
	c = g_markup_parse_context_new(&p, 0, s, NULL);
	if (!g_markup_parse_context_parse(c, text, len, &err) ||
	    !g_markup_parse_context_end_parse(c, &err))
		fail_msg("%s: %s", HM_IPFIX_XML, err->message);
	g_markup_parse_context_free(c);
	g_free(text);
}

static void xml_records_equal_model_elements(void **state)
{
	const struct hm_ipfix_ie_def *d;
	struct xml_state s;
	size_t n, i, ent = 0;
	int k;

	read_xml(&s);
	d = hm_ipfix_ie_defs(&n);
	for (i = 0; i < n; i++) {
		const struct xml_rec *r = NULL;

		if (!d[i].enterprise)
			continue;
		ent++;
		for (k = 0; k < s.n; k++)
			if (!strcmp(s.rec[k].name, d[i].name))
				r = &s.rec[k];
		if (!r)
			fail_msg("%s: expected a record, found none", d[i].name);
		if (r->id != d[i].id || r->pen != HM_IPFIX_PEN_DEFAULT)
			fail_msg("%s: expected %d/%u, XML has %ld/%ld", d[i].name,
				 HM_IPFIX_PEN_DEFAULT, d[i].id, r->pen, r->id);
		if (strcmp(r->type, type_name(d[i].type)))
			fail_msg("%s: dataType expected %s, XML has %s", d[i].name,
				 type_name(d[i].type), r->type);
		if (strcmp(r->sem, sem_name(d[i].flags)))
			fail_msg("%s: dataTypeSemantics expected %s, XML has %s",
				 d[i].name, sem_name(d[i].flags), r->sem);
		if (strcmp(r->units, units_name(d[i].flags)))
			fail_msg("%s: units expected '%s', XML has '%s'", d[i].name,
				 units_name(d[i].flags), r->units);
	}
	/* No record the model lacks, and no element number used twice. */
	if ((size_t)s.n != ent)
		fail_msg("expected %zu records, XML has %d", ent, s.n);
	for (k = 0; k < s.n; k++)
		for (i = k + 1; i < (size_t)s.n; i++)
			if (s.rec[k].id == s.rec[i].id)
				fail_msg("elementId %ld used twice", s.rec[k].id);
	/* The enterprise numbers of ipfix_ie.h, 1 to HM_IE_TEMPLATE_FIELDS. */
	assert_int_equal(ent, HM_IE_TEMPLATE_FIELDS);
}

static void libfixbuf_reads_the_registry_as_the_model(void **state)
{
	fbInfoModel_t *xm = fbInfoModelAlloc(), *m = hm_ipfix_model_new(HM_IPFIX_PEN_DEFAULT);
	const struct hm_ipfix_ie_def *d;
	GError *err = NULL;
	size_t n, i;

	if (!fbInfoModelReadXMLFile(xm, HM_IPFIX_XML, &err))
		fail_msg("fbInfoModelReadXMLFile: %s", err->message);
	d = hm_ipfix_ie_defs(&n);
	for (i = 0; i < n; i++) {
		const fbInfoElement_t *x = fbInfoModelGetElementByName(xm, d[i].name);
		const fbInfoElement_t *e = fbInfoModelGetElementByName(m, d[i].name);

		if (!d[i].enterprise)
			continue;
		if (!x)
			fail_msg("%s: libfixbuf did not read it", d[i].name);
		assert_non_null(e);
		if (x->ent != e->ent || x->num != e->num || x->type != e->type ||
		    x->len != e->len)
			fail_msg("%s: XML %u/%u type %u len %u, model %u/%u type %u len %u",
				 d[i].name, x->ent, x->num, x->type, x->len, e->ent,
				 e->num, e->type, e->len);
	}
	fbInfoModelFree(xm);
	fbInfoModelFree(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xml_records_equal_model_elements),
		cmocka_unit_test(libfixbuf_reads_the_registry_as_the_model),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
