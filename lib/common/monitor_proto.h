/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * monitor_proto.h - the protocol of hopmarkd's monitor socket
 * ($HOPMARK_RUNDIR/hopmarkd.sock, hopmark_run.h), shared by the agent
 * (agent/monitor_sock.c) and its clients (`hopmark monitor`, agent-bench).
 * Documentation/agent.rst, "Monitor socket protocol", is the reference.
 *
 * A client that sends nothing gets JSON lines (Documentation/json-record.rst),
 * each ending in '\n'. A client that wants the binary stream sends, as the
 * first line it writes,
 *
 *   "hopmark-monitor binary 1\n"          (%HM_MON_REQ_BINARY, version 1)
 *
 * and the agent, at the end of the batch it is sending, writes the line
 * %HM_MON_ACK_BINARY ("hopmark-monitor binary 1 ok\n"); after that line
 * the stream is binary frames, each
 *
 *   0  be32  len       octets of the payload after this 8-octet header,
 *                      at most %HM_MON_FRAME_MAX
 *   4  be16  type      enum hm_mon_frame_type
 *   6  be16  reserved  0
 *   8  len octets      the payload
 *
 * Before the acknowledgement the client may get whole JSON lines (those
 * the agent sent between the connect and reading the request): they are
 * records like the frames, in order. A request that is not a line of this
 * form, or a version the agent does not speak, is answered with one line
 * starting %HM_MON_ERROR_PFX and saying why, and the agent closes the
 * connection (and counts it); nothing follows. Input after the request is
 * read and discarded.
 */
#ifndef __HOPMARK_MONITOR_PROTO_H
#define __HOPMARK_MONITOR_PROTO_H

#include <linux/types.h>

#define HM_MON_REQ_PFX		"hopmark-monitor "	/* every request line */
#define HM_MON_BINARY_VERSION	1	/* frames and records as below */
#define HM_MON_REQ_BINARY	HM_MON_REQ_PFX "binary 1\n"
#define HM_MON_ACK_BINARY	HM_MON_REQ_PFX "binary 1 ok\n"
#define HM_MON_ERROR_PFX	HM_MON_REQ_PFX "error: "
/* Longest request line the agent reads, with its '\n'. */
#define HM_MON_REQ_MAX		256

#define HM_MON_FRAME_HDR_LEN	8
/* Longest frame payload (a JSON line of a postcard or an INT record). */
#define HM_MON_FRAME_MAX	(1024 * 1024)

/**
 * enum hm_mon_frame_type - what a binary frame's payload is
 * @HM_MON_FRAME_IOAM_RECORD:	one decoded IOAM trace record, struct
 *				hm_record in the layout of
 *				lib/ioam/record_wire.h (version
 *				%HM_RECORD_WIRE_VERSION)
 * @HM_MON_FRAME_JSON_LINE:	one JSON line of another source (a module
 *				postcard, an INT record, a PBT-M postcard),
 *				the bytes the JSON stream carries, with its
 *				'\n'
 *
 * A client skips frames of a type it does not know (their length says
 * how far); version 1 of the stream sends only these.
 */
enum hm_mon_frame_type {
	HM_MON_FRAME_IOAM_RECORD	= 1,
	HM_MON_FRAME_JSON_LINE		= 2,
};

/**
 * hm_mon_frame_hdr() - write a frame header
 * @p:		output, %HM_MON_FRAME_HDR_LEN octets
 * @type:	enum hm_mon_frame_type
 * @len:	payload octets that follow, at most %HM_MON_FRAME_MAX
 */
static inline void hm_mon_frame_hdr(__u8 *p, __u16 type, __u32 len)
{
	p[0] = len >> 24;
	p[1] = len >> 16;
	p[2] = len >> 8;
	p[3] = len;
	p[4] = type >> 8;
	p[5] = type;
	p[6] = 0;
	p[7] = 0;
}

#endif /* __HOPMARK_MONITOR_PROTO_H */
