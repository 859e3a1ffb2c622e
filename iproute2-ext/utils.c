// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * utils.c - argument matching and parsing for the hopmark command, the
 * iproute2 way: words may be abbreviated (matches()), and every error names
 * the offending word: `Error: argument "foo" is wrong: ...`. Also the error
 * object of -j (hm_json_errors_begin(), hm_exit_status()).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "hopmark_cli.h"

/*
 * With -j a failing command prints one JSON object on stdout,
 * {"error":{"message":M,"errno":E,"exit_status":S}} (Documentation/cli.rst),
 * whichever part of the command failed. Errors are printed as text to
 * stderr in many places (this file's helpers, the netlink client, libbpf's
 * log, usage()), so the message is taken from what reaches stderr: with -j,
 * stderr becomes a stream that writes everything through to fd 2 and keeps
 * the first line starting with "Error: " (else the first line). The JSON
 * message is thus the text message, word for word.
 */
#define HM_ERR_LINE_MAX	1024

static struct {
	char line[HM_ERR_LINE_MAX];	/* the stderr line being written */
	size_t line_len;
	char error[HM_ERR_LINE_MAX];	/* first "Error: " line */
	char first[HM_ERR_LINE_MAX];	/* first line, whatever it says */
	int err;			/* errno given with the first error */
	bool have_err;			/* @err is set */
	bool printed;			/* the error object is out */
} jerr;

/* Keep @line in @dst (HM_ERR_LINE_MAX bytes) unless @dst holds one already. */
static void jerr_keep(char *dst, const char *line)
{
	size_t n = strnlen(line, HM_ERR_LINE_MAX - 1);

	if (*dst || !n)
		return;
	memcpy(dst, line, n);
	dst[n] = '\0';
}

static void jerr_line_done(void)
{
	jerr.line[jerr.line_len] = '\0';
	if (!strncmp(jerr.line, "Error: ", 7))
		jerr_keep(jerr.error, jerr.line + 7);
	jerr_keep(jerr.first, jerr.line);
	jerr.line_len = 0;
}

static ssize_t jerr_write(void *cookie, const char *buf, size_t size)
{
	size_t done = 0, i;
	ssize_t n;

	while (done < size) {
		n = write(STDERR_FILENO, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* stderr closed: still keep the message */
		done += n;
	}
	for (i = 0; i < size; i++) {
		if (buf[i] == '\n')
			jerr_line_done();
		else if (jerr.line_len < sizeof(jerr.line) - 1)
			jerr.line[jerr.line_len++] = buf[i];
	}
	return size;
}

/**
 * hm_json_errors_begin() - with -j, keep what the command prints on stderr
 *
 * Replaces stderr by an unbuffered stream that writes to file descriptor 2
 * as before and keeps the first error line for hm_exit_status(). Called by
 * main() once -j is known; without -j nothing changes.
 */
void hm_json_errors_begin(void)
{
	cookie_io_functions_t io = { .write = jerr_write };
	FILE *f;

	if (!json)
		return;
	f = fopencookie(NULL, "w", io);
	if (!f)
		return;	/* the text errors still go out; only JSON lacks them */
	setvbuf(f, NULL, _IONBF, 0);
	stderr = f;
}

/* Record @err (negative or positive errno) as the JSON error's errno. */
static void jerr_errno(int err)
{
	if (!err || jerr.have_err || jerr.error[0])
		return;	/* the errno goes with the first error message only */
	jerr.err = err < 0 ? -err : err;
	jerr.have_err = true;
}

/**
 * hm_exit_status() - finish a command: with -j, the error object of a failure
 * @status:	the command's exit status (%HM_EXIT_OK, %HM_EXIT_FAIL, %HM_EXIT_USAGE)
 *
 * With -j and a non-zero @status, prints on stdout, as its last line, once:
 * {"error":{"message":M,"errno":E,"exit_status":@status}}, M being the first
 * "Error: " line the command printed on stderr (without "Error: " and the
 * final period), else its first stderr line, else "failed"; E the errno
 * the failure came with, or null when it was not a system error (usage
 * errors, refusals explained by the message). A command printing one JSON
 * document prints none when it fails (it fails before delete_json_obj()),
 * so the error object is all of its stdout; one printing JSON lines
 * (monitor, decode) ends with it.
 *
 * Return: @status.
 */
int hm_exit_status(int status)
{
	struct json_object *o, *e;
	const char *msg;
	char buf[HM_ERR_LINE_MAX];
	size_t n;

	if (!json || status == HM_EXIT_OK || jerr.printed)
		return status;
	jerr.printed = true;
	fflush(stderr);
	if (jerr.line_len)
		jerr_line_done();
	msg = jerr.error[0] ? jerr.error : jerr.first[0] ? jerr.first : "failed";
	snprintf(buf, sizeof(buf), "%s", msg);
	n = strlen(buf);
	if (jerr.error[0] && n && buf[n - 1] == '.')
		buf[n - 1] = '\0';
	o = json_object_new_object();
	e = json_object_new_object();
	if (!o || !e) {
		json_object_put(o);
		json_object_put(e);
		return status;
	}
	json_object_object_add(e, "message", json_object_new_string(buf));
	json_object_object_add(e, "errno", jerr.have_err ? json_object_new_int(jerr.err) : NULL);
	json_object_object_add(e, "exit_status", json_object_new_int(status));
	json_object_object_add(o, "error", e);
	fflush(stdout);
	puts(json_object_to_json_string_ext(o, (pretty ? JSON_C_TO_STRING_PRETTY |
						JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN) |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	json_object_put(o);
	return status;
}

/* exit(), with the -j error object first. */
static void __attribute__((noreturn)) hm_exit(int status)
{
	exit(hm_exit_status(status));
}

/**
 * matches() - whether @prefix abbreviates the keyword @word
 * @prefix:	what the user typed
 * @word:	the keyword
 *
 * Return: true if @prefix is a non-empty prefix of @word (iproute2's
 * matches(), with the sense of its return value made boolean).
 */
bool matches(const char *prefix, const char *word)
{
	size_t len = strlen(prefix);

	return len && len <= strlen(word) && !strncmp(prefix, word, len);
}

/**
 * hm_subcmd_run() - run the COMMAND of "hopmark OBJECT COMMAND ..." from
 * the OBJECT's table
 * @object:	the OBJECT's keyword, for the error ("hopmark OBJECT help")
 * @cmds:	the COMMANDs, ended by a { NULL, NULL } entry; the first whose
 *		keyword @argv[0] abbreviates (matches()) runs, so the table's
 *		order decides what an abbreviation shared by two means
 * @usage:	prints the OBJECT's usage to the stream given
 * @argc:	words after OBJECT
 * @argv:	the words
 *
 * No word: the usage on stderr, %HM_EXIT_USAGE. "help" (or an
 * abbreviation of it, before the table): the usage on stdout,
 * %HM_EXIT_OK. A word no keyword matches: an error naming it and the
 * OBJECT's help, %HM_EXIT_USAGE.
 *
 * Return: the exit status of the COMMAND's handler, or the above.
 */
int hm_subcmd_run(const char *object, const struct hm_subcmd *cmds, void (*usage)(FILE *f),
		  int argc, char **argv)
{
	const struct hm_subcmd *c;

	if (argc < 1) {
		usage(stderr);
		return HM_EXIT_USAGE;
	}
	if (matches(*argv, "help")) {
		usage(stdout);
		return HM_EXIT_OK;
	}
	for (c = cmds; c->name; c++)
		if (matches(*argv, c->name))
			return c->func(argc - 1, argv + 1);
	fprintf(stderr, "Error: command \"%s\" is unknown, try \"hopmark %s help\".\n",
		*argv, object);
	return HM_EXIT_USAGE;
}

/**
 * invarg() - report an invalid value and exit with %HM_EXIT_USAGE
 * @msg:	why the value is wrong
 * @arg:	the value as typed
 */
void invarg(const char *msg, const char *arg)
{
	fprintf(stderr, "Error: argument \"%s\" is wrong: %s\n", arg, msg);
	hm_exit(HM_EXIT_USAGE);
}

/**
 * incomplete_command() - report a keyword given without its value
 * @word: the keyword
 */
void incomplete_command(const char *word)
{
	fprintf(stderr, "Error: \"%s\" needs a value: command line is not complete. Try \"help\".\n",
		word);
	hm_exit(HM_EXIT_USAGE);
}

/**
 * duparg() - report a keyword given twice
 * @key: the keyword
 * @arg: its second value
 */
void duparg(const char *key, const char *arg)
{
	fprintf(stderr, "Error: duplicate \"%s\": \"%s\" is the second value\n", key, arg);
	hm_exit(HM_EXIT_USAGE);
}

/**
 * unknown_arg() - report a word that no grammar rule takes
 * @obj: the command it was given to, e.g. "ioam encap"
 * @arg: the word
 */
void unknown_arg(const char *obj, const char *arg)
{
	fprintf(stderr, "Error: argument \"%s\" is wrong: unknown for \"hopmark %s\". Try \"hopmark %s help\".\n",
		arg, obj, obj);
	hm_exit(HM_EXIT_USAGE);
}

/**
 * missing_arg() - report a required keyword that was not given
 * @what: the keyword, e.g. "dev"
 * @cmd: the command, e.g. "ioam encap add"
 */
void missing_arg(const char *what, const char *cmd)
{
	fprintf(stderr, "Error: \"%s\" is required by \"hopmark %s\".\n", what, cmd);
	hm_exit(HM_EXIT_USAGE);
}

/**
 * get_rate_bps() - parse a link rate of `enable ... rate RATE`
 * @arg:	text: a number of bit/s with an optional k, m or g suffix
 *		(powers of 10) and an optional "bit" or "bps", e.g. 10m, 1gbit
 * @bps:	output, bit/s
 *
 * Return: 0; -EINVAL if @arg is not such a rate or above 10 Tbit/s.
 */
int get_rate_bps(const char *arg, __u64 *bps)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || v < 0)
		return -EINVAL;
	switch (*end) {
	case 'k': case 'K': v *= 1e3; end++; break;
	case 'm': case 'M': v *= 1e6; end++; break;
	case 'g': case 'G': v *= 1e9; end++; break;
	}
	if (!strcmp(end, "bit") || !strcmp(end, "bps"))
		end += strlen(end);
	if (*end || v > 1e13)
		return -EINVAL;
	*bps = (__u64)v;
	return 0;
}

/**
 * get_u64_max() - parse an unsigned number (decimal, 0x hex or 0 octal)
 * @val:	output
 * @arg:	text
 * @max:	largest accepted value
 *
 * Return: 0; -EINVAL if @arg is not a number; -ERANGE if above @max.
 */
int get_u64_max(__u64 *val, const char *arg, __u64 max)
{
	unsigned long long v;
	char *end;

	if (!*arg || *arg == '-' || *arg == '+' || *arg == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(arg, &end, 0);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

/**
 * get_u64_arg() - parse a number or exit naming the word
 * @arg:	text
 * @max:	largest accepted value
 * @what:	what the number is, for the message ("node id")
 *
 * Return: the value.
 */
__u64 get_u64_arg(const char *arg, __u64 max, const char *what)
{
	char msg[160];
	__u64 v;
	int err;

	err = get_u64_max(&v, arg, max);
	if (err == -EINVAL) {
		snprintf(msg, sizeof(msg), "%s must be a number", what);
		invarg(msg, arg);
	}
	if (err == -ERANGE) {
		unsigned long long all_ones = (unsigned long long)max + 1;

		/* IDs stop one short of all-ones, RFC 9197's "unavailable". */
		if (max < ~0ULL && !(all_ones & (all_ones + 1)))
			snprintf(msg, sizeof(msg),
				 "%s must be at most %llu (0x%llx); 0x%llx means unavailable",
				 what, (unsigned long long)max, (unsigned long long)max, all_ones);
		else
			snprintf(msg, sizeof(msg), "%s must be at most %llu (0x%llx)",
				 what, (unsigned long long)max, (unsigned long long)max);
		invarg(msg, arg);
	}
	return v;
}

/** get_u32_arg() - get_u64_arg() for values that fit 32 bits */
__u32 get_u32_arg(const char *arg, __u32 max, const char *what)
{
	return (__u32)get_u64_arg(arg, max, what);
}

/**
 * get_ifindex_arg() - interface index of a device name, or exit naming it
 * @dev: interface name
 *
 * Return: the ifindex (never 0).
 */
__u32 get_ifindex_arg(const char *dev)
{
	char msg[96];
	unsigned int idx;

	if (strlen(dev) >= IF_NAMESIZE)
		invarg("interface name is too long", dev);
	idx = if_nametoindex(dev);
	if (!idx) {
		int err = errno;

		snprintf(msg, sizeof(msg), "%s", err == ENODEV ? "no such device" : strerror(err));
		jerr_errno(err);
		fprintf(stderr, "Error: argument \"%s\" is wrong: %s\n", dev, msg);
		hm_exit(HM_EXIT_FAIL);
	}
	return idx;
}

/**
 * parse_ipv6_prefix() - parse "ADDR[/LEN]" into an LPM key
 * @arg:	text; without /LEN the prefix is the address (/128)
 * @key:	output, address in network byte order
 *
 * Host bits beyond the prefix length must be zero, as `ip route` demands,
 * so that `encap del` of the same text finds the entry.
 *
 * Return: 0, or exits with a message naming @arg.
 */
int parse_ipv6_prefix(const char *arg, struct hopmark_encap_key *key)
{
	char buf[INET6_ADDRSTRLEN + 8];
	const char *slash;
	__u64 plen = 128;
	unsigned int i;

	if (strlen(arg) >= sizeof(buf))
		invarg("not an IPv6 prefix", arg);
	strcpy(buf, arg);
	slash = strchr(arg, '/');
	if (slash) {
		buf[slash - arg] = '\0';
		if (get_u64_max(&plen, slash + 1, 128))
			invarg("prefix length must be 0..128", arg);
	}
	memset(key, 0, sizeof(*key));
	if (inet_pton(AF_INET6, buf, key->addr) != 1)
		invarg("not an IPv6 address or prefix (ADDR[/LEN])", arg);
	key->prefixlen = plen;
	for (i = 0; i < 128; i++) {
		if (i >= plen && (key->addr[i / 8] & (0x80 >> (i % 8))))
			invarg("address has bits set beyond the prefix length", arg);
	}
	return 0;
}

/**
 * format_ipv6_prefix() - text form "ADDR/LEN" of an LPM key
 * @key:	key
 * @buf:	output
 * @len:	size of @buf (INET6_ADDRSTRLEN + 4 is enough)
 */
void format_ipv6_prefix(const struct hopmark_encap_key *key, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, key->addr, addr, sizeof(addr));
	snprintf(buf, len, "%s/%u", addr, key->prefixlen);
}

/**
 * ifname_or_index() - interface name, or "if<N>" when it has gone
 * @ifindex:	interface index
 * @buf:	at least IF_NAMESIZE bytes
 *
 * Return: @buf.
 */
const char *ifname_or_index(__u32 ifindex, char *buf)
{
	if (!if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "if%u", ifindex);
	return buf;
}

/* "Error: <message>", then ": <strerror(-err)>" when @reason, then ".". */
static int hm_verrf(int err, bool reason, const char *fmt, va_list ap)
{
	jerr_errno(err);
	fputs("Error: ", stderr);
	vfprintf(stderr, fmt, ap);
	if (reason && err)
		fprintf(stderr, ": %s", strerror(err < 0 ? -err : err));
	fputs(".\n", stderr);
	return HM_EXIT_FAIL;
}

/**
 * hm_errf() - print "Error: <message>: <strerror(-err)>" to stderr
 * @err:	negative errno (0: no reason appended)
 * @fmt:	message
 *
 * Return: %HM_EXIT_FAIL, to be returned by the command.
 */
int hm_errf(int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = hm_verrf(err, true, fmt, ap);
	va_end(ap);
	return ret;
}

/**
 * hm_errf_errno() - hm_errf() for a message that explains @err in its own words
 * @err:	negative errno: the "errno" of the -j error object, not printed
 * @fmt:	message
 *
 * Return: %HM_EXIT_FAIL.
 */
int hm_errf_errno(int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = hm_verrf(err, false, fmt, ap);
	va_end(ap);
	return ret;
}
