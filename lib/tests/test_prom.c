// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * test_prom.c - the Prometheus text exposition writer and the /metrics
 * server (lib/common/prom.[ch]): families printed whole with HELP and TYPE
 * once, label values and help escaped as the text format 0.0.4 says, bad
 * names refused and counted, values formatted, ADDR:PORT parsed, and the
 * HTTP answers (200 with the format's Content-Type, 404, 405) of a server
 * on 127.0.0.1 with a collector and a snapshot.
 */
#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hm_test.h"
#include "common/prom.h"

static char *finish(struct hm_prom_writer *w)
{
	size_t len;
	char *s = hm_prom_writer_finish(w, &len);

	assert_non_null(s);
	assert_int_equal(strlen(s), len);
	return s;
}

/* Samples of two families added interleaved come out grouped, HELP/TYPE once. */
static void prom_families_are_printed_whole(void **state)
{
	struct hm_prom_writer *w = hm_prom_writer_new();
	struct hm_prom_label l1[] = { { "dev", "eth0" }, { "node", "5" } };
	struct hm_prom_label l2[] = { { "dev", "eth1" }, { "node", "5" } };
	const char *want =
		"# HELP hopmark_x_ok_total Packets that went well\n"
		"# TYPE hopmark_x_ok_total counter\n"
		"hopmark_x_ok_total{dev=\"eth0\",node=\"5\"} 7\n"
		"hopmark_x_ok_total{dev=\"eth1\",node=\"5\"} 18446744073709551615\n"
		"# HELP hopmark_x_err_total Packets that did not\n"
		"# TYPE hopmark_x_err_total counter\n"
		"hopmark_x_err_total{dev=\"eth0\",node=\"5\"} 0\n"
		"hopmark_x_err_total{dev=\"eth1\",node=\"5\"} 1\n"
		"# HELP hopmark_x_clients Clients connected\n"
		"# TYPE hopmark_x_clients gauge\n"
		"hopmark_x_clients 3\n";
	char *s;

	assert_non_null(w);
	assert_int_equal(hm_prom_counter(w, "hopmark_x_ok_total", "Packets that went well", l1, 2, 7), 0);
	assert_int_equal(hm_prom_counter(w, "hopmark_x_err_total", "Packets that did not", l1, 2, 0), 0);
	assert_int_equal(hm_prom_counter(w, "hopmark_x_ok_total", "Packets that went well", l2, 2,
					 UINT64_MAX), 0);
	assert_int_equal(hm_prom_counter(w, "hopmark_x_err_total", "Packets that did not", l2, 2, 1), 0);
	assert_int_equal(hm_prom_gauge(w, "hopmark_x_clients", "Clients connected", NULL, 0, 3), 0);
	assert_int_equal(hm_prom_writer_refused(w), 0);
	s = finish(w);
	if (strcmp(s, want))
		print_message("expected:\n%sobserved:\n%s", want, s);
	assert_string_equal(s, want);
	free(s);
}

/* Label values escape \, " and newline; help escapes \ and newline only. */
static void prom_escapes_label_values_and_help(void **state)
{
	struct hm_prom_writer *w = hm_prom_writer_new();
	struct hm_prom_label l[] = { { "dev", "a\"b\\c\nd\xc3\xa9" } };
	const char *want =
		"# HELP hopmark_y A \"quoted\" \\\\ help\\nline two\n"
		"# TYPE hopmark_y gauge\n"
		"hopmark_y{dev=\"a\\\"b\\\\c\\nd\xc3\xa9\"} 1\n";
	char *s;

	assert_int_equal(hm_prom_gauge(w, "hopmark_y", "A \"quoted\" \\ help\nline two", l, 1, 1), 0);
	s = finish(w);
	if (strcmp(s, want))
		print_message("expected:\n%sobserved:\n%s", want, s);
	assert_string_equal(s, want);
	free(s);
}

/* Each refusal returns -EINVAL, is counted and leaves nothing in the text. */
static void prom_refuses_bad_names_and_redefinitions(void **state)
{
	struct hm_prom_writer *w = hm_prom_writer_new();
	struct hm_prom_label reserved[] = { { "__name", "x" } };
	struct hm_prom_label twice[] = { { "dev", "a" }, { "dev", "b" } };
	struct hm_prom_label digit[] = { { "1dev", "a" } };
	struct hm_prom_label colon[] = { { "de:v", "a" } };
	struct hm_prom_label nullv[] = { { "dev", NULL } };
	const char *want =
		"# HELP hopmark_ok_total ok\n"
		"# TYPE hopmark_ok_total counter\n"
		"hopmark_ok_total 1\n";
	char *s;

	assert_int_equal(hm_prom_counter(w, "hopmark_ok_total", "ok", NULL, 0, 1), 0);
	assert_int_equal(hm_prom_counter(w, "hopmark_no_suffix", "c", NULL, 0, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "1abc", "g", NULL, 0, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "a-b", "g", NULL, 0, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "", "g", NULL, 0, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "hopmark_g", "g", reserved, 1, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "hopmark_g", "g", twice, 2, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "hopmark_g", "g", digit, 1, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "hopmark_g", "g", colon, 1, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "hopmark_g", "g", nullv, 1, 1), -EINVAL);
	assert_int_equal(hm_prom_gauge(w, "hopmark_g", "g", twice, HM_PROM_MAX_LABELS + 1, 1),
			 -EINVAL);
	/* The same family again with another type, or another help. */
	assert_int_equal(hm_prom_gauge(w, "hopmark_ok_total", "ok", NULL, 0, 1), -EINVAL);
	assert_int_equal(hm_prom_counter(w, "hopmark_ok_total", "other", NULL, 0, 1), -EINVAL);
	assert_int_equal(hm_prom_add(w, 7, "hopmark_t", "t", NULL, 0, "1"), -EINVAL);
	assert_int_equal(hm_prom_writer_refused(w), 13);
	s = finish(w);
	assert_string_equal(s, want);
	free(s);

	assert_true(hm_prom_name_ok("a:b_c9", false));
	assert_false(hm_prom_name_ok("a:b", true));
	assert_true(hm_prom_name_ok("_x", true));
}

/* Gauge values: integers plain, NaN and infinities as the format spells them. */
static void prom_formats_gauge_values(void **state)
{
	static const struct { double v; const char *text; } cases[] = {
		{ 0, "0" }, { -3, "-3" }, { 1.5, "1.5" }, { 0.1, "0.10000000000000001" },
		{ 1e300, "1.0000000000000001e+300" }, { NAN, "NaN" }, { INFINITY, "+Inf" },
		{ -INFINITY, "-Inf" }, { 9007199254740991.0, "9007199254740991" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hm_prom_writer *w = hm_prom_writer_new();
		char want[128], *s;

		snprintf(want, sizeof(want), "# HELP g h\n# TYPE g gauge\ng %s\n", cases[i].text);
		assert_int_equal(hm_prom_gauge(w, "g", "h", NULL, 0, cases[i].v), 0);
		s = finish(w);
		if (strcmp(s, want))
			print_message("value %g: expected \"%s\", observed:\n%s", cases[i].v,
				      cases[i].text, s);
		assert_string_equal(s, want);
		free(s);
	}
}

static void prom_parses_addr_port(void **state)
{
	static const char *const bad[] = {
		"", "9464", ":9464", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536",
		"127.0.0.1:-1", "127.0.0.1:+1", "127.0.0.1:9x", "localhost:9464", "::1:9464",
		"[::1]", "[::1:9464", "[127.0.0.1]:9464", "[]:1", "1.2.3.4.5:1",
	};
	struct sockaddr_storage ss;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
	unsigned int len, i;

	assert_int_equal(hm_prom_parse_addr("127.0.0.1:9464", &ss, &len), 0);
	assert_int_equal(a4->sin_family, AF_INET);
	assert_int_equal(ntohs(a4->sin_port), 9464);
	assert_int_equal(ntohl(a4->sin_addr.s_addr), 0x7f000001);
	assert_int_equal(len, sizeof(*a4));
	assert_int_equal(hm_prom_parse_addr("0.0.0.0:0", &ss, &len), 0);
	assert_int_equal(hm_prom_parse_addr("[::1]:65535", &ss, &len), 0);
	assert_int_equal(a6->sin6_family, AF_INET6);
	assert_int_equal(ntohs(a6->sin6_port), 65535);
	assert_int_equal(a6->sin6_addr.s6_addr[15], 1);
	assert_int_equal(len, sizeof(*a6));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (hm_prom_parse_addr(bad[i], &ss, &len) != -EINVAL)
			print_message("\"%s\": expected -EINVAL\n", bad[i]);
		assert_int_equal(hm_prom_parse_addr(bad[i], &ss, &len), -EINVAL);
	}
}

/* One HTTP/1.0 request to 127.0.0.1:PORT; the whole answer, NUL-terminated. */
static char *http(unsigned int port, const char *request)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(0x7f000001) };
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	ssize_t n;
	int fd;

	assert_non_null(buf);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(write(fd, request, strlen(request)), (ssize_t)strlen(request));
	while ((n = read(fd, buf + len, cap - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

static void collect_fixed(struct hm_prom_writer *w, void *arg)
{
	struct hm_prom_label l[] = { { "dev", arg } };

	hm_prom_counter(w, "hopmark_test_packets_total", "Packets", l, 1, 42);
	/* Refused: counted in the server's own counter. */
	hm_prom_counter(w, "hopmark_test_bad", "no _total", NULL, 0, 1);
}

struct test_counts {
	__u64	a;
	__u64	b;
};

static void collect_snap(struct hm_prom_writer *w, const void *data, void *arg)
{
	const struct test_counts *c = data;

	hm_prom_counter(w, "hopmark_test_a_total", "A", NULL, 0, c->a);
	hm_prom_counter(w, "hopmark_test_b_total", "B", NULL, 0, c->b);
}

static void prom_server_answers_metrics_404_and_405(void **state)
{
	struct test_counts counts = { 5, 6 };
	struct hm_prom_server *srv;
	struct hm_prom_snap *snap;
	char err[160], *r;

	srv = hm_prom_server_new("127.0.0.1:99999", "test_prom", err, sizeof(err));
	assert_null(srv);
	assert_int_equal(errno, EINVAL);
	print_message("# refused as expected: %s\n", err);

	srv = hm_prom_server_new("127.0.0.1:0", "test_prom", err, sizeof(err));
	if (!srv)
		print_message("server: %s\n", err);
	assert_non_null(srv);
	assert_true(hm_prom_server_port(srv) > 0);
	assert_int_equal(hm_prom_register(srv, collect_fixed, "veth0"), 0);
	snap = hm_prom_snap_new(srv, sizeof(counts), collect_snap, NULL);
	assert_non_null(snap);

	/* Before the first publish the snapshot writes nothing. */
	r = http(hm_prom_server_port(srv), "GET /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "HTTP/1.0 200") ? r : strstr(r, "HTTP/1.1 200"));
	assert_non_null(strstr(r, "Content-Type: " HM_PROM_CONTENT_TYPE "\r\n"));
	assert_non_null(strstr(r, "\r\n\r\n# HELP hopmark_test_packets_total Packets\n"));
	assert_non_null(strstr(r, "\nhopmark_test_packets_total{dev=\"veth0\"} 42\n"));
	assert_null(strstr(r, "hopmark_test_a_total"));
	assert_null(strstr(r, "hopmark_test_bad"));
	assert_non_null(strstr(r, "\nhopmark_metrics_scrapes_total 1\n"));
	assert_non_null(strstr(r, "\nhopmark_metrics_samples_refused_total 1\n"));
	free(r);

	hm_prom_snap_publish(snap, &counts);
	counts.a = 1000;	/* after the publish: not seen */
	r = http(hm_prom_server_port(srv), "GET /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, "\nhopmark_test_a_total 5\n"));
	assert_non_null(strstr(r, "\nhopmark_test_b_total 6\n"));
	assert_non_null(strstr(r, "\nhopmark_metrics_scrapes_total 2\n"));
	assert_non_null(strstr(r, "\nhopmark_metrics_samples_refused_total 2\n"));
	free(r);

	r = http(hm_prom_server_port(srv), "GET / HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 404 "));
	free(r);
	r = http(hm_prom_server_port(srv), "POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n");
	assert_non_null(strstr(r, " 405 "));
	assert_non_null(strstr(r, "Allow: GET, HEAD\r\n"));
	free(r);
	r = http(hm_prom_server_port(srv), "HEAD /metrics HTTP/1.0\r\n\r\n");
	assert_non_null(strstr(r, " 200 "));
	assert_null(strstr(r, "# HELP"));
	free(r);

	hm_prom_server_free(srv);
	hm_prom_snap_publish(NULL, &counts);	/* no metrics: nothing happens */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prom_families_are_printed_whole),
		cmocka_unit_test(prom_escapes_label_values_and_help),
		cmocka_unit_test(prom_refuses_bad_names_and_redefinitions),
		cmocka_unit_test(prom_formats_gauge_values),
		cmocka_unit_test(prom_parses_addr_port),
		cmocka_unit_test(prom_server_answers_metrics_404_and_405),
	};

	return HM_RUN_TESTS(tests);
}
