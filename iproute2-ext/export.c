// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * export.c - "hopmark export": how the hopmark kernel module sends its
 * events (HOPMARK_CMD_EXPORT_SET/GET): the rate limit (events/s, token
 * bucket with a one-second burst; the default of new IOAM-Namespaces and
 * the limit of events without one, such as SRH O-flag events), the batch
 * size (records per message), the flush delay of a partial batch and the
 * postcard fields the agent exports (HOPMARK_ATTR_EXPORT_FIELDS).
 * Records not sent are counted (hopmark module counters).
 */
#include <errno.h>
#include <string.h>

#include "hopmark_cli.h"
#include "genl.h"
#include "postcard/postcard.h"

#define FIELD_WORDS "node, timestamp, flow, headers, node-data, option or all"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: hopmark export set [ rate N ] [ batch N ] [ flush MS ]\n"
		"                          [ fields FIELD[,FIELD...] | fields all ]\n"
		"       hopmark export show\n"
		"where  rate := 0..%u events/s (0: no limit; default %u), the default of new\n"
		"               IOAM-Namespaces and the limit of events without one (O-flag)\n"
		"       batch := 1..%u records per event message (default %u)\n"
		"       flush := 1..%u ms a partial batch may wait (default %u)\n"
		"       FIELD := node | timestamp | flow | headers | node-data | option\n"
		"                postcard fields hopmarkd exports (default all)\n"
		"Needs the hopmark kernel module; per-namespace limits: hopmark module namespace.\n",
		HOPMARK_RATE_MAX, HOPMARK_RATE_DEFAULT, HOPMARK_BATCH_MAX,
		HOPMARK_BATCH_DEFAULT, HOPMARK_FLUSH_MS_MAX, HOPMARK_FLUSH_MS_DEFAULT);
}

/**
 * struct hm_export_cfg - HOPMARK_CMD_EXPORT_GET reply
 * @rate:	events/s, 0 = no limit
 * @batch:	records per message
 * @flush_ms:	ms
 * @fields:	postcard fields exported, enum hopmark_export_field bits
 * @have:	bit 0 rate, bit 1 batch, bit 2 flush_ms, bit 3 fields present
 */
struct hm_export_cfg {
	__u32 rate, batch, flush_ms, fields;
	unsigned int have;
};

/* "all" or names from hm_postcard_field_name() joined by commas. */
static __u32 parse_fields(const char *arg)
{
	char buf[256], *tok, *save;
	const char *name;
	__u32 fields = 0;
	unsigned int bit;

	if (strlen(arg) >= sizeof(buf))
		invarg("not a list of postcard fields", arg);
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			fields |= HOPMARK_EXPORT_F_ALL;
			continue;
		}
		for (bit = 0; (name = hm_postcard_field_name(bit)); bit++) {
			if (!strcmp(tok, name))
				break;
		}
		if (!name)
			invarg("unknown postcard field, use " FIELD_WORDS, tok);
		fields |= 1U << bit;
	}
	if (!fields)
		invarg("no postcard field, use " FIELD_WORDS, arg);
	return fields;
}

static __u32 parse_range(const char *arg, __u32 min, __u32 max, const char *what)
{
	char msg[96];
	__u32 v = get_u32_arg(arg, max, what);

	if (v < min) {
		snprintf(msg, sizeof(msg), "%s must be at least %u", what, min);
		invarg(msg, arg);
	}
	return v;
}

static int export_set(int argc, char **argv)
{
	char buf[HM_GENL_BUF];
	struct hm_export_cfg c = {};
	struct hm_genl g = {};
	struct nlmsghdr *nlh;
	int err;

	while (argc > 0) {
		if (matches(*argv, "rate")) {
			NEXT_ARG();
			if (c.have & 1)
				duparg("rate", *argv);
			c.rate = parse_range(*argv, 0, HOPMARK_RATE_MAX, "rate limit (events/s)");
			c.have |= 1;
		} else if (matches(*argv, "batch")) {
			NEXT_ARG();
			if (c.have & 2)
				duparg("batch", *argv);
			c.batch = parse_range(*argv, 1, HOPMARK_BATCH_MAX,
					      "batch size (records per message)");
			c.have |= 2;
		} else if (matches(*argv, "flush")) {
			NEXT_ARG();
			if (c.have & 4)
				duparg("flush", *argv);
			c.flush_ms = parse_range(*argv, 1, HOPMARK_FLUSH_MS_MAX, "flush delay (ms)");
			c.have |= 4;
		} else if (!strcmp(*argv, "fields")) {
			NEXT_ARG();
			if (c.have & 8)
				duparg("fields", *argv);
			c.fields = parse_fields(*argv);
			c.have |= 8;
		} else if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		} else {
			unknown_arg("export set", *argv);
		}
		argc--;
		argv++;
	}
	if (!c.have)
		missing_arg("rate, batch, flush or fields", "export set");
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	nlh = hm_genl_msg(&g, buf, HOPMARK_CMD_EXPORT_SET, NLM_F_ACK);
	if (c.have & 1)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_RATE_LIMIT, c.rate);
	if (c.have & 2)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_BATCH_SIZE, c.batch);
	if (c.have & 4)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_FLUSH_MS, c.flush_ms);
	if (c.have & 8)
		mnl_attr_put_u32(nlh, HOPMARK_ATTR_EXPORT_FIELDS, c.fields);
	err = hm_genl_talk(&g, nlh, NULL, NULL);
	if (err)
		err = hm_genl_errf(&g, err, "cannot set the export settings");
	hm_genl_close(&g);
	return err;
}

static int export_get_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[HOPMARK_ATTR_MAX + 1];
	struct hm_export_cfg *c = data;

	if (hm_genl_parse(nlh, tb, HOPMARK_ATTR_MAX) != MNL_CB_OK)
		return MNL_CB_ERROR;
	if (tb[HOPMARK_ATTR_RATE_LIMIT] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_RATE_LIMIT], MNL_TYPE_U32)) {
		c->rate = mnl_attr_get_u32(tb[HOPMARK_ATTR_RATE_LIMIT]);
		c->have |= 1;
	}
	if (tb[HOPMARK_ATTR_BATCH_SIZE] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_BATCH_SIZE], MNL_TYPE_U32)) {
		c->batch = mnl_attr_get_u32(tb[HOPMARK_ATTR_BATCH_SIZE]);
		c->have |= 2;
	}
	if (tb[HOPMARK_ATTR_FLUSH_MS] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_FLUSH_MS], MNL_TYPE_U32)) {
		c->flush_ms = mnl_attr_get_u32(tb[HOPMARK_ATTR_FLUSH_MS]);
		c->have |= 4;
	}
	if (tb[HOPMARK_ATTR_EXPORT_FIELDS] &&
	    !mnl_attr_validate(tb[HOPMARK_ATTR_EXPORT_FIELDS], MNL_TYPE_U32)) {
		c->fields = mnl_attr_get_u32(tb[HOPMARK_ATTR_EXPORT_FIELDS]);
		c->have |= 8;
	}
	return MNL_CB_OK;
}

/*
 * Text: " fields all", " fields node,flow" or " fields none"; JSON: "fields",
 * an array of the field names.
 */
static void print_fields(__u32 fields)
{
	char text[128] = "";
	const char *name;
	unsigned int bit;
	size_t off = 0;

	open_json_array(PRINT_JSON, "fields");
	for (bit = 0; (name = hm_postcard_field_name(bit)); bit++) {
		if (!(fields & (1U << bit)))
			continue;
		print_string(PRINT_JSON, NULL, NULL, name);
		off += snprintf(text + off, sizeof(text) - off, "%s%s", off ? "," : "", name);
	}
	close_json_array(PRINT_JSON, NULL);
	if ((fields & HOPMARK_EXPORT_F_ALL) == HOPMARK_EXPORT_F_ALL)
		snprintf(text, sizeof(text), "all");
	print_string(PRINT_FP, NULL, " fields %s", text[0] ? text : "none");
}

/**
 * hm_export_print() - print the module's export settings (one show entry)
 * @g: connected socket
 *
 * Used by "hopmark export show" and "hopmark module show".
 *
 * Return: 0 or %HM_EXIT_FAIL after printing why.
 */
int hm_export_print(struct hm_genl *g)
{
	char buf[HM_GENL_BUF];
	struct hm_export_cfg c = {};
	struct nlmsghdr *nlh;
	int err;

	nlh = hm_genl_msg(g, buf, HOPMARK_CMD_EXPORT_GET, NLM_F_ACK);
	err = hm_genl_talk(g, nlh, export_get_cb, &c);
	if (err)
		return hm_genl_errf(g, err, "cannot read the export settings");
	if (c.have & 1) {
		if (c.rate)
			print_uint(PRINT_ANY, "rate", "rate %llu", c.rate);
		else
			print_uint(PRINT_ANY, "rate", "rate %llu (no limit)", 0);
	}
	if (c.have & 2)
		print_uint(PRINT_ANY, "batch", " batch %llu", c.batch);
	if (c.have & 4)
		print_uint(PRINT_ANY, "flush", " flush %llu", c.flush_ms);
	if (c.have & 8)
		print_fields(c.fields);
	return 0;
}

static int export_show(int argc, char **argv)
{
	struct hm_genl g = {};
	int err;

	if (argc > 0) {
		if (matches(*argv, "help")) {
			usage(stdout);
			return HM_EXIT_OK;
		}
		unknown_arg("export show", *argv);
	}
	if (hm_genl_connect(&g))
		return HM_EXIT_FAIL;
	new_json_obj();
	open_json_object(NULL);
	err = hm_export_print(&g);
	print_nl();
	close_json_object();
	if (!err)
		delete_json_obj();
	hm_genl_close(&g);
	return err;
}

/**
 * do_export() - "hopmark export { set | show | help }"
 * @argc: words after "export"
 * @argv: the words
 *
 * Return: exit status.
 */
int do_export(int argc, char **argv)
{
	if (argc < 1)
		return export_show(0, NULL);
	if (matches(*argv, "set"))
		return export_set(argc - 1, argv + 1);
	if (matches(*argv, "show") || matches(*argv, "list"))
		return export_show(argc - 1, argv + 1);
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark export help\".\n",
		*argv);
	return HM_EXIT_USAGE;
}
