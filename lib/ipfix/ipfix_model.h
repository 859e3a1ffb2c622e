/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * ipfix_model.h - hopmark's IPFIX information model and templates on
 * libfixbuf (RFC 7011, RFC 7012), and the mapping between IPFIX Data
 * Records and struct hm_pc_obs in both directions: the one definition the
 * exporter (hopmarkd) and the collector (hopmark-collector) share.
 *
 * - hm_ipfix_model_new() builds a libfixbuf information model with the
 *   IANA elements libfixbuf 2.4.1 lacks (RFC 9487's SRH elements) and
 *   hopmark's enterprise elements (HM_IE_*) under a PEN (default
 *   %HM_IPFIX_PEN_DEFAULT, --pen to override). The same elements are
 *   described in lib/ipfix/hopmark-ipfix.xml, which a unit test checks.
 * - hm_ipfix_tpl_spec() gives the field list of each HM_TID_* template;
 *   hm_ipfix_tpl_new() builds it. Every external template is a subset of
 *   the internal template %HM_IPFIX_TID_INTERNAL, whose C layout is
 *   struct hm_ipfix_fields (ipfix_decode.h): libfixbuf transcodes between
 *   them by element.
 * - hm_ipfix_fields_from_obs() fills a struct hm_ipfix_fields from a
 *   postcard and hm_ipfix_obs_tid() names its template;
 *   hm_ipfix_fields_to_obs() (ipfix_decode.h) turns a record of any of
 *   these templates (or of any template holding hopmark's key elements)
 *   back into a struct hm_pc_obs.
 *
 * Needs libfixbuf and GLib: built into build/libhopmark-ipfix.a, never
 * into libhopmark.a (lib/ipfix/build.mk).
 */
#ifndef __HOPMARK_IPFIX_MODEL_H
#define __HOPMARK_IPFIX_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <fixbuf/public.h>

#include "ipfix/ipfix_decode.h"
#include "ipfix/ipfix_ie.h"
#include "postcard/pc_obs.h"

/*
 * Template ID of the internal template (struct hm_ipfix_fields). Internal
 * templates never go on the wire; the ID only has to differ from the
 * external ones in the same session.
 */
#define HM_IPFIX_TID_INTERNAL	0x7f00
#define HM_IPFIX_TID_STATS_INTERNAL 0x7f01
/* Template ID of the RFC 5610 Information Element type records. */
#define HM_IPFIX_TID_RFC5610	264

/**
 * struct hm_ipfix_stats_rec - the exporter's options record (%HM_TID_STATS)
 * @obs_domain:	observationDomainId, the scope (RFC 7011 §3.4.2.2)
 * @pad:	paddingOctets
 * @not_sent:	hopmarkRecordsNotSent: records the exporter counted and did
 *		not send (rate limit, queue full, transport down), since start
 * @messages:	exportedMessageTotalCount, since start
 * @records:	exportedFlowRecordTotalCount: Data Records sent, since start
 */
struct hm_ipfix_stats_rec {
	__u32	obs_domain;
	__u32	pad;
	__u64	not_sent;
	__u64	messages;
	__u64	records;
};

/*
 * struct hm_ipfix_fields (a record of the internal template), struct
 * hm_ipfix_var (its variable-length parts), enum hm_ipfix_elem (one bit
 * per element of the model), hm_ipfix_tpl_elems_of(),
 * hm_ipfix_fields_to_obs(), hm_ipfix_ns_to_ntp() and hm_ipfix_ntp_to_ns()
 * are the decoder's, which needs no libfixbuf: lib/ipfix/ipfix_decode.h.
 */


/**
 * struct hm_ipfix_ie_def - one element hopmark adds to libfixbuf's model
 * @name:	the registry's name (hopmark-ipfix.xml, ipfix_ie.h comments)
 * @enterprise:	true: under hopmark's PEN; false: an IANA element (PEN 0)
 *		libfixbuf 2.4.1 does not know
 * @id:		element ID
 * @len:	default length, octets (%FB_IE_VARLEN: variable)
 * @type:	RFC 7012 §3.1 abstract data type, libfixbuf's FB_* value
 * @flags:	FB_IE_F_ENDIAN, semantics (FB_IE_*) and units (FB_UNITS_*)
 * @desc:	one-line description (RFC 5610 informationElementDescription)
 */
struct hm_ipfix_ie_def {
	const char	*name;
	bool		enterprise;
	__u16		id;
	__u16		len;
	__u8		type;
	__u32		flags;
	const char	*desc;
};

/**
 * hm_ipfix_ie_defs() - the elements hopmark adds to the information model
 * @n: set to how many
 *
 * Return: the table, in element ID order (enterprise ones after IANA ones).
 */
const struct hm_ipfix_ie_def *hm_ipfix_ie_defs(size_t *n);

/**
 * hm_ipfix_model_add() - add hopmark's elements to a libfixbuf model
 * @model:	information model (fbInfoModelAlloc())
 * @pen:	Private Enterprise Number of the HM_IE_* elements (not 0)
 *
 * IANA elements are added only when @model lacks them (a later libfixbuf
 * may know RFC 9487's). Elements are added with FB_IE_F_ENDIAN for the
 * integer types, so libfixbuf converts them to host order.
 *
 * Return: 0, or -EINVAL when @pen is 0 or an element of @model already
 * has a hopmark element's name under another number.
 */
int hm_ipfix_model_add(fbInfoModel_t *model, __u32 pen);

/**
 * hm_ipfix_model_new() - a libfixbuf model with hopmark's elements
 * @pen: PEN of the HM_IE_* elements (%HM_IPFIX_PEN_DEFAULT unless --pen)
 *
 * Return: the model (fbInfoModelFree() it), or NULL on a bad @pen.
 */
fbInfoModel_t *hm_ipfix_model_new(__u32 pen);

/**
 * hm_ipfix_tpl_spec() - the field list of a template
 * @tid:	an HM_TID_*, %HM_IPFIX_TID_INTERNAL or %HM_IPFIX_TID_STATS_INTERNAL
 *
 * Return: the FB_IESPEC_NULL-terminated spec, or NULL for another @tid.
 */
const fbInfoElementSpec_t *hm_ipfix_tpl_spec(__u16 tid);

/**
 * hm_ipfix_tpl_new() - build a template of hopmark's
 * @model:	a model from hm_ipfix_model_new()
 * @tid:	as for hm_ipfix_tpl_spec()
 * @err:	GLib error, set on failure
 *
 * %HM_TID_STATS and %HM_IPFIX_TID_STATS_INTERNAL are options templates
 * whose scope is observationDomainId (RFC 7011 §3.4.2.2).
 *
 * Return: the template (owned by the caller until added to a session),
 * or NULL.
 */
fbTemplate_t *hm_ipfix_tpl_new(fbInfoModel_t *model, __u16 tid, GError **err);

/**
 * hm_ipfix_tpl_elems() - which of the model's elements a template holds
 * @tmpl: any template (a collector's external one, hopmark's or not)
 *
 * Return: bit (1ULL << enum hm_ipfix_elem) set for each element present.
 */
__u64 hm_ipfix_tpl_elems(const fbTemplate_t *tmpl);

/**
 * hm_ipfix_obs_tid() - the template a postcard is exported with
 * @o: postcard
 *
 * PBT-M: %HM_TID_PBT_V4 / %HM_TID_PBT_V6, or their _EXT when a per-flow
 * template applied (@o->tpl_id != 0); DEX, O-flag and INT-XD/MX their own.
 *
 * Return: the Template ID, or 0 for an unknown source or family.
 */
__u16 hm_ipfix_obs_tid(const struct hm_pc_obs *o);

/**
 * hm_ipfix_fields_from_obs() - a postcard as a record of the internal template
 * @r:		record to fill (zeroed first)
 * @o:		postcard
 * @var:	its variable-length and source-specific parts, or NULL
 *
 * Optional fields @o lacks (@o->present) are written as unknown: 0 for
 * interfaces, lengths and addresses, %PBT_UNKNOWN32 for queue depth and
 * sojourn; the _EXT templates also carry hopmarkTemplateFields, the
 * PBT_FLD_* bits of the fields that are valid. @o->ts_ns becomes NTP
 * time (RFC 7011 §6.1.10).
 */
void hm_ipfix_fields_from_obs(struct hm_ipfix_fields *r, const struct hm_pc_obs *o,
			      const struct hm_ipfix_var *var);

#endif /* __HOPMARK_IPFIX_MODEL_H */
