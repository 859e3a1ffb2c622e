// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * fwd_gen.c - the generator of the forwarding benchmark (bench/fwd_bench.sh):
 * sends one UDP frame, over and over, from a raw AF_PACKET socket.
 *
 * The frame is built once: Ethernet, then IPv6 (optionally with a Hop-by-Hop
 * header whose only option, after a 2-octet PadN, is an IOAM Pre-allocated
 * Trace, RFC 9197 §4.4 and RFC 9486 §3, laid out as Linux's own IOAM
 * encapsulation lays it out) or IPv4, then UDP with a small payload. The
 * trace's data area is zero and RemainingLen covers all of it, as an
 * encapsulating node leaves it.
 *
 * Sending: sendmmsg(2) of BATCH copies of the frame at a time, with
 * PACKET_QDISC_BYPASS so that the frame goes from the socket to the driver
 * (veth_xmit) without a qdisc. The kernel copies each frame from the user
 * buffer, so nothing is rewritten between calls. A full peer ring makes
 * veth drop (counted on the device as tx_dropped), not block: the rate
 * offered is the generator's ceiling, whatever the router does.
 *
 * -X OBJ sends live XDP frames instead (bench/fwd_xmit.bpf.c): one
 * BPF_PROG_TEST_RUN call with BPF_F_TEST_XDP_LIVE_FRAMES runs the program
 * on up to a million page_pool frames, each rewritten from the template map
 * and sent with XDP_TX out of DEV; on a veth they reach the peer's ring as
 * xdp_frames, without an skb, at a small cost per frame. A call spends
 * about 20 ms setting up (synchronize_rcu), hence so many frames per call.
 * The frames a full peer ring refuses are lost, counted by the peer.
 *
 * Output, one line on stdout: "sent N seconds S pps P" (S with 6 decimals).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/ether.h"
#include "common/ip_proto.h"
#include "ioam/ioam6.h"
#include "int/int.h"
#include "fwd_xmit.h"

#define GEN_FRAME_MAX	1514
#define GEN_BATCH_MAX	1024
#define GEN_PAYLOAD	18	/* UDP payload octets */
#define GEN_HOPLIM	64
#define GEN_UDP_PORT	9	/* discard */
#define GEN_OPT_IOAM	0x31	/* IPv6 option type of IOAM (RFC 9486 §3) */
#define GEN_OPT_PADN	1

struct gen_cfg {
	const char	*dev;
	__u8		dst_mac[6];
	__u8		src_mac[6];
	int		ipv4;
	struct in6_addr	src6, dst6;
	struct in_addr	src4, dst4;
	__u32		trace_type;	/* 0: no Hop-by-Hop header */
	unsigned int	nodes;		/* node slots pre-allocated */
	__u16		ns_id;		/* IOAM-Namespace */
	unsigned long	count;		/* 0: until @seconds */
	double		seconds;
	unsigned int	batch;
	const char	*xmit_obj;	/* -X: live XDP frames from this object */
	__u16		int_bitmap;	/* -M: INT-MD over UDP (NPT=1), 0: none */
};

#define GEN_INT_PORT	4242	/* -M: the INT domain's UDP port */
#define GEN_INT_RHC	7	/* -M: Remaining Hop Count as sent */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: fwd-gen -i DEV -d DST_MAC [-S SRC_MAC] { -6 SRC,DST | -4 SRC,DST }\n"
		"               [-T TRACE_TYPE -N NODES [-I NAMESPACE]] [-n COUNT | -t SECONDS]\n"
		"               [-b BATCH] [-X FWD_XMIT.bpf.o] [-M INT_BITMAP]\n"
		"  -T  IOAM Trace-Type (IPv6 only; e.g. 0xc00000): adds a Hop-by-Hop header\n"
		"      with a Pre-allocated Trace of NODES slots (namespace default 123)\n"
		"  -n  frames to send; -t  seconds to send for (default 1); -b  frames per\n"
		"      sendmmsg (default 256, at most %d)\n"
		"  -X  send live XDP frames (XDP_TX from BPF_PROG_TEST_RUN) with this object\n"
		"  -M  INT-MD bitmap (e.g. 0x9000): UDP to port %d with an INT v2.1 shim\n"
		"      (NPT=1, original port 9), MD header and one earlier hop's metadata\n",
		GEN_BATCH_MAX, GEN_INT_PORT);
}

static int parse_mac(const char *s, __u8 *mac)
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -1;
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -1;
		mac[i] = b[i];
	}
	return 0;
}

static int parse_pair(const char *s, int af, void *src, void *dst)
{
	char buf[128], *comma;

	if (strlen(s) >= sizeof(buf))
		return -1;
	strcpy(buf, s);
	comma = strchr(buf, ',');
	if (!comma)
		return -1;
	*comma = '\0';
	if (inet_pton(af, buf, src) != 1 || inet_pton(af, comma + 1, dst) != 1)
		return -1;
	return 0;
}

/* The 16-bit one's complement sum of @len octets, folded later. */
static __u32 csum_add(__u32 sum, const void *data, size_t len)
{
	const __u8 *p = data;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (p[i] << 8) | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	return sum;
}

static __u16 csum_fold(__u32 sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (__u16)~sum;
}

/* Octets per node slot of @tt (RFC 9197 §4.4.2: bits 0-7 and 11 are 4, 8-10 are 8). */
static unsigned int slot_len(__u32 tt)
{
	unsigned int n, len = 0;

	for (n = 0; n < 12; n++)
		if (tt & HM_IOAM_TT_BIT(n))
			len += (n >= 8 && n <= 10) ? 8 : 4;
	return len;
}

/*
 * Build the frame into @f. Return: its length, or 0 (message printed)
 * when the trace does not fit.
 */
static size_t build_frame(const struct gen_cfg *c, __u8 *f)
{
	size_t off = HM_ETH_HLEN, l4, hbh_len = 0, int_len = 0, upl, i;
	__u32 hop_ml = 0, sum;
	__u8 *udp;

	if (c->int_bitmap) {
		hop_ml = int_bitmap_words(c->int_bitmap);
		int_len = INT_FIXED_LEN + hop_ml * 4;
	}
	upl = int_len + GEN_PAYLOAD;	/* UDP payload */

	memcpy(f, c->dst_mac, 6);
	memcpy(f + 6, c->src_mac, 6);
	if (c->ipv4) {
		__u8 *ip = f + off;

		f[12] = 0x08;
		f[13] = 0x00;
		memset(ip, 0, 20);
		ip[0] = 0x45;
		ip[2] = (20 + 8 + upl) >> 8;
		ip[3] = (20 + 8 + upl) & 0xff;
		ip[6] = 0x40;	/* DF */
		ip[8] = GEN_HOPLIM;
		ip[9] = HM_IPPROTO_UDP;
		memcpy(ip + 12, &c->src4, 4);
		memcpy(ip + 16, &c->dst4, 4);
		sum = csum_fold(csum_add(0, ip, 20));
		ip[10] = sum >> 8;
		ip[11] = sum & 0xff;
		l4 = off + 20;
	} else {
		__u8 *ip = f + off;
		size_t plen;

		f[12] = 0x86;
		f[13] = 0xdd;
		if (c->trace_type) {
			size_t data = (size_t)slot_len(c->trace_type) * c->nodes;
			/* HbH head 2, PadN 2, option head 4, trace head 8, data */
			hbh_len = 2 + 2 + HM_IOAM_OPT_HDR_LEN + HM_IOAM_TRACE_HDR_LEN + data;
			if (!slot_len(c->trace_type) || data > HM_IOAM_TRACE_DATA_MAX ||
			    data / 4 > HM_IOAM_TRACE_REMLEN_MASK || hbh_len % 8) {
				fprintf(stderr, "fwd-gen: a trace of %u slots of %u octets does not fit "
					"a Hop-by-Hop header of 8-octet units (at most %d octets)\n",
					c->nodes, slot_len(c->trace_type), HM_IOAM_TRACE_DATA_MAX);
				return 0;
			}
		}
		plen = hbh_len + 8 + upl;
		memset(ip, 0, 40 + hbh_len);
		ip[0] = 0x60;
		ip[4] = plen >> 8;
		ip[5] = plen & 0xff;
		ip[6] = hbh_len ? 0 /* Hop-by-Hop */ : HM_IPPROTO_UDP;
		ip[7] = GEN_HOPLIM;
		memcpy(ip + 8, &c->src6, 16);
		memcpy(ip + 24, &c->dst6, 16);
		if (hbh_len) {
			__u8 *h = ip + 40;
			size_t data = hbh_len - 16;
			struct hm_ioam6_trace_hdr *t;

			h[0] = HM_IPPROTO_UDP;
			h[1] = hbh_len / 8 - 1;
			h[2] = GEN_OPT_PADN;
			h[3] = 0;
			h[4] = GEN_OPT_IOAM;
			h[5] = 2 + HM_IOAM_TRACE_HDR_LEN + data;
			h[6] = 0;
			h[7] = HM_IOAM_OPT_PREALLOC_TRACE;
			t = (struct hm_ioam6_trace_hdr *)(h + 8);
			t->namespace_id = htons(c->ns_id);
			t->nodelen_flags = (slot_len(c->trace_type) / 4) << 3;
			t->remlen = data / 4;
			hm_ioam6_trace_set_type(t, c->trace_type);
		}
		l4 = off + 40 + hbh_len;
	}
	udp = f + l4;
	memset(udp, 0, 8 + upl);
	udp[0] = GEN_UDP_PORT >> 8;
	udp[1] = GEN_UDP_PORT & 0xff;
	udp[2] = (c->int_bitmap ? GEN_INT_PORT : GEN_UDP_PORT) >> 8;
	udp[3] = (c->int_bitmap ? GEN_INT_PORT : GEN_UDP_PORT) & 0xff;
	udp[4] = (8 + upl) >> 8;
	udp[5] = (8 + upl) & 0xff;
	if (c->int_bitmap) {
		/* INT §5.7.2 NPT=1: shim (the original port), MD header, one hop. */
		__u8 *sh = udp + 8;
		__u32 w0 = int_md_w0(0, hop_ml, GEN_INT_RHC);

		sh[0] = int_shim_type_npt(INT_TYPE_MD, INT_NPT_UDP);
		sh[1] = int_len / 4 - 1;
		sh[2] = GEN_UDP_PORT >> 8;
		sh[3] = GEN_UDP_PORT & 0xff;
		sh[4] = w0 >> 24;
		sh[5] = w0 >> 16;
		sh[6] = w0 >> 8;
		sh[7] = w0;
		sh[8] = c->int_bitmap >> 8;
		sh[9] = c->int_bitmap & 0xff;
		for (i = 0; i < hop_ml; i++) {
			sh[INT_FIXED_LEN + 4 * i] = 1;	/* the earlier hop: 0x010000NN */
			sh[INT_FIXED_LEN + 4 * i + 3] = i;
		}
	}
	memcpy(udp + 8 + int_len, "hopmark fwd bench.", GEN_PAYLOAD);
	/* Checksum over the pseudo-header (RFC 768, RFC 8200 §8.1). */
	if (c->ipv4) {
		sum = csum_add(0, &c->src4, 4);
		sum = csum_add(sum, &c->dst4, 4);
	} else {
		sum = csum_add(0, &c->src6, 16);
		sum = csum_add(sum, &c->dst6, 16);
	}
	sum += HM_IPPROTO_UDP + 8 + upl;
	sum = csum_fold(csum_add(sum, udp, 8 + upl));
	if (!sum)
		sum = 0xffff;
	udp[6] = sum >> 8;
	udp[7] = sum & 0xff;
	return l4 + 8 + upl;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define GEN_LIVE_CALL	1000000UL	/* frames per BPF_PROG_TEST_RUN call at most */
#define GEN_LIVE_TIMED	250000UL	/* per call when sending for a time */

/*
 * Live XDP frames (-X): see the head comment. Return: 0, or 1 after a
 * message; *@sent counts the frames the program ran on.
 */
static int send_live(const struct gen_cfg *c, const __u8 *frame, size_t len,
		     unsigned long *sent)
{
	struct hm_fwd_tmpl tmpl = { .len = len };
	struct xdp_md ctx = { .data_end = len };
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	__u32 key = 0;
	double end;
	int err, fd;

	if (len > HM_FWD_TMPL_MAX) {
		fprintf(stderr, "fwd-gen: a %zu-octet frame is over the template's %d\n",
			len, HM_FWD_TMPL_MAX);
		return 1;
	}
	memcpy(tmpl.b, frame, len);
	ctx.ingress_ifindex = if_nametoindex(c->dev);
	if (!ctx.ingress_ifindex) {
		fprintf(stderr, "fwd-gen: no device %s\n", c->dev);
		return 1;
	}
	obj = bpf_object__open_file(c->xmit_obj, NULL);
	err = libbpf_get_error(obj);
	if (!err)
		err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "fwd-gen: cannot load %s: %s\n", c->xmit_obj, strerror(-err));
		return 1;
	}
	prog = bpf_object__find_program_by_name(obj, "hm_fwd_xmit");
	map = bpf_object__find_map_by_name(obj, "hm_fwd_tmpl");
	if (!prog || !map ||
	    bpf_map_update_elem(bpf_map__fd(map), &key, &tmpl, BPF_ANY)) {
		fprintf(stderr, "fwd-gen: %s: no program hm_fwd_xmit or map hm_fwd_tmpl\n",
			c->xmit_obj);
		bpf_object__close(obj);
		return 1;
	}
	fd = bpf_program__fd(prog);
	end = now_s() + c->seconds;
	while (!stop) {
		unsigned long n = c->count ? c->count - *sent : GEN_LIVE_TIMED;
		LIBBPF_OPTS(bpf_test_run_opts, o,
			.data_in = frame, .data_size_in = len,
			.ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
			.flags = BPF_F_TEST_XDP_LIVE_FRAMES);

		if (c->count ? *sent >= c->count : now_s() >= end)
			break;
		if (n > GEN_LIVE_CALL)
			n = GEN_LIVE_CALL;
		o.repeat = n;
		if (bpf_prog_test_run_opts(fd, &o)) {
			fprintf(stderr, "fwd-gen: BPF_PROG_TEST_RUN (live frames): %s\n",
				strerror(errno));
			bpf_object__close(obj);
			return 1;
		}
		*sent += n;
	}
	bpf_object__close(obj);
	return 0;
}

int main(int argc, char **argv)
{
	static struct mmsghdr msgs[GEN_BATCH_MAX];
	static struct iovec iov;
	static __u8 frame[GEN_FRAME_MAX];
	struct gen_cfg c = { .seconds = 1, .batch = 256, .ns_id = 123 };
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int opt, fd, one = 1, have_addr = 0;
	unsigned long sent = 0;
	double t0, t1, end;
	size_t len;
	unsigned int i;

	while ((opt = getopt(argc, argv, "i:d:S:6:4:T:N:I:n:t:b:X:M:h")) != -1) {
		switch (opt) {
		case 'i':
			c.dev = optarg;
			break;
		case 'd':
		case 'S':
			if (parse_mac(optarg, opt == 'd' ? c.dst_mac : c.src_mac)) {
				fprintf(stderr, "fwd-gen: bad MAC address \"%s\"\n", optarg);
				return 2;
			}
			break;
		case '6':
		case '4':
			c.ipv4 = opt == '4';
			if (parse_pair(optarg, c.ipv4 ? AF_INET : AF_INET6,
				       c.ipv4 ? (void *)&c.src4 : (void *)&c.src6,
				       c.ipv4 ? (void *)&c.dst4 : (void *)&c.dst6)) {
				fprintf(stderr, "fwd-gen: bad address pair \"%s\" (SRC,DST)\n", optarg);
				return 2;
			}
			have_addr = 1;
			break;
		case 'T':
			c.trace_type = strtoul(optarg, NULL, 0) & HM_IOAM_TT_MASK;
			break;
		case 'N':
			c.nodes = strtoul(optarg, NULL, 0);
			break;
		case 'I':
			c.ns_id = strtoul(optarg, NULL, 0);
			break;
		case 'n':
			c.count = strtoul(optarg, NULL, 0);
			break;
		case 't':
			c.seconds = strtod(optarg, NULL);
			break;
		case 'b':
			c.batch = strtoul(optarg, NULL, 0);
			break;
		case 'X':
			c.xmit_obj = optarg;
			break;
		case 'M':
			c.int_bitmap = strtoul(optarg, NULL, 0);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!c.dev || !have_addr || !c.batch || c.batch > GEN_BATCH_MAX ||
	    (c.trace_type && (c.ipv4 || !c.nodes)) || (c.int_bitmap && c.trace_type)) {
		usage(stderr);
		return 2;
	}
	len = build_frame(&c, frame);
	if (!len)
		return 2;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	if (c.xmit_obj) {
		t0 = now_s();
		if (send_live(&c, frame, len, &sent))
			return 1;
		t1 = now_s();
		printf("sent %lu seconds %.6f pps %.0f\n", sent, t1 - t0,
		       t1 > t0 ? sent / (t1 - t0) : 0.0);
		return 0;
	}

	fd = socket(AF_PACKET, SOCK_RAW, 0);	/* protocol 0: send only */
	if (fd < 0) {
		perror("fwd-gen: socket(AF_PACKET)");
		return 1;
	}
	if (setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one)))
		perror("fwd-gen: PACKET_QDISC_BYPASS (sending through the qdisc)");
	sll.sll_ifindex = if_nametoindex(c.dev);
	if (!sll.sll_ifindex) {
		fprintf(stderr, "fwd-gen: no device %s\n", c.dev);
		return 1;
	}
	sll.sll_halen = 6;
	memcpy(sll.sll_addr, c.dst_mac, 6);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("fwd-gen: bind");
		return 1;
	}
	iov.iov_base = frame;
	iov.iov_len = len;
	for (i = 0; i < c.batch; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now_s();
	end = t0 + c.seconds;
	while (!stop) {
		unsigned int n = c.batch;
		int r;

		if (c.count) {
			if (sent >= c.count)
				break;
			if (c.count - sent < n)
				n = c.count - sent;
		} else if (now_s() >= end) {
			break;	/* a vDSO read per batch of frames */
		}
		r = sendmmsg(fd, msgs, n, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			/* A full device queue (ENOBUFS): try again. */
			if (errno == ENOBUFS || errno == EAGAIN)
				continue;
			perror("fwd-gen: sendmmsg");
			return 1;
		}
		sent += r;
	}
	t1 = now_s();
	printf("sent %lu seconds %.6f pps %.0f\n", sent, t1 - t0,
	       t1 > t0 ? sent / (t1 - t0) : 0.0);
	close(fd);
	return 0;
}
