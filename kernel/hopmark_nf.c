// SPDX-License-Identifier: GPL-2.0-only
/*
 * hopmark_nf.c - the netfilter hooks of hopmark.ko's datapath
 *
 * The top layer of the datapath: each hook decides, from the bits of the
 * interface it looks at, which option handlers (hopmark_dp.h) see the
 * packet, and passes them what it knows (struct hm_pkt). The handlers edit
 * the Hop-by-Hop header with ipv6_hbh.h and number flows with
 * hopmark_flow.h; nothing below includes this file's API.
 *
 * Hooks, registered in every network namespace (pernet operations):
 *
 *   PRE_ROUTING  (before conntrack defrag, so fragments are seen as such)
 *		  on the ingress interface: IOAM Direct Export (RFC 9326) and
 *		  IOAM Edge-to-Edge decapsulation (RFC 9197 §4.6).
 *   FORWARD	  IOAM Incremental Trace transit (RFC 9197 §4.4): the egress
 *		  device and its MTU are known here, and the hop limit has
 *		  been decremented (Hop_Lim is the value the packet leaves
 *		  with, as Linux's own IOAM writes on input).
 *   LOCAL_IN	  the node is the destination: Incremental Trace sink event
 *		  and the SRH O-flag at a segment endpoint (RFC 9259 §2). Linux
 *		  processes the SRH of a packet addressed to a local address
 *		  after this hook (ip6_input_finish), and seg6local behaviours
 *		  pass it with net.netfilter.nf_hooks_lwtunnel=1, so the SRH is
 *		  seen here as it arrived.
 *   POST_ROUTING (after source NAT) on the egress interface: insertion of
 *		  the Edge-to-Edge, Direct Export and Incremental Trace options
 *		  by the encapsulating node.
 *
 * A packet the datapath cannot handle (malformed, fragment, no memory,
 * would exceed the MTU) is accepted unchanged and counted; the hooks never
 * drop.
 */
#include <linux/netfilter.h>
#include <linux/netfilter_ipv6.h>
#include <net/ipv6.h>
#include <net/netns/generic.h>

#include "hopmark_dp.h"

/**
 * struct hm_dp_net - datapath state of a network namespace
 * @flows:	per-flow Sequence Numbers of the encapsulations (hopmark_flow.h)
 */
struct hm_dp_net {
	struct hm_flows flows;
};

static unsigned int hm_dp_net_id __read_mostly;

/**
 * hm_is_fragment() - whether the packet carries a Fragment header
 * @skb: the packet
 *
 * Return: true for an IPv6 fragment (left untouched, HOPMARK_CNT_FRAGMENT).
 */
static bool hm_is_fragment(struct sk_buff *skb)
{
	unsigned int off = 0;

	return ipv6_find_hdr(skb, &off, HM_NEXTHDR_FRAGMENT, NULL, NULL) >= 0;
}

/**
 * hm_pkt_init() - fill the packet context of a hook
 * @pkt: context to fill
 * @skb: the packet
 * @state: the hook's state (network namespace, devices)
 *
 * Return: false when the packet is not one the datapath can look at: its
 * IPv6 header is not at skb->data or not linear, or it is a jumbogram
 * (Payload Length 0, RFC 2675; also Linux's BIG TCP), whose length is not
 * in the IPv6 header.
 */
static bool hm_pkt_init(struct hm_pkt *pkt, struct sk_buff *skb,
			const struct nf_hook_state *state)
{
	struct hm_dp_net *dn = net_generic(state->net, hm_dp_net_id);

	if (skb_network_offset(skb) != 0 ||
	    !pskb_may_pull(skb, HM_IPV6_HDR_LEN) ||
	    !ipv6_hdr(skb)->payload_len)
		return false;
	pkt->hn = hm_pernet(state->net);
	pkt->flows = &dn->flows;
	pkt->in = state->in;
	pkt->out = state->out;
	pkt->in_if = pkt->in ? hm_if_lookup_rcu(pkt->hn, pkt->in->ifindex) : NULL;
	pkt->out_if = pkt->out ? hm_if_lookup_rcu(pkt->hn, pkt->out->ifindex) : NULL;
	pkt->now_ns = ktime_get_real_ns();
	pkt->hop_limit = ipv6_hdr(skb)->hop_limit;
	return true;
}

/**
 * hm_features() - enabled feature bits of an interface configuration
 * @hif: the configuration, or NULL
 *
 * Return: enum hopmark_if_feature bits, 0 for NULL.
 */
static u32 hm_features(const struct hm_if *hif)
{
	return hif ? READ_ONCE(hif->features) : 0;
}

/**
 * hm_nf_pre_routing() - ingress: Direct Export and E2E decapsulation
 * @priv: unused
 * @skb: the packet
 * @state: hook state
 *
 * Return: NF_ACCEPT, always.
 */
static unsigned int hm_nf_pre_routing(void *priv, struct sk_buff *skb,
				      const struct nf_hook_state *state)
{
	struct hopmark_net *hn = hm_pernet(state->net);
	struct hm_if *hif;
	struct hm_ioam_opt opt;
	struct hm_pkt pkt;
	u32 f;
	int err;

	if (ipv6_hdr(skb)->nexthdr != HM_NEXTHDR_HOP || !state->in)
		return NF_ACCEPT;
	hif = hm_if_lookup_rcu(hn, state->in->ifindex);
	f = hm_features(hif) & (HOPMARK_IF_F_DEX | HOPMARK_IF_F_E2E_DECAP);
	if (!f || !hm_pkt_init(&pkt, skb, state))
		return NF_ACCEPT;
	/* On input Linux reports the hop limit the packet will leave with. */
	if (pkt.hop_limit)
		pkt.hop_limit--;
	if (hm_is_fragment(skb)) {
		hm_count(hn, hif, HOPMARK_CNT_FRAGMENT);
		return NF_ACCEPT;
	}
	if (f & HOPMARK_IF_F_DEX) {
		err = hm_hbh_find_ioam(skb, HM_IOAM_OPT_DEX, -1, &opt);
		if (!err)
			hm_dex_export(&pkt, skb, &opt);
		else if (err == -EBADMSG)
			hm_count(hn, hif, HOPMARK_CNT_MALFORMED);
	}
	if (f & HOPMARK_IF_F_E2E_DECAP)
		hm_e2e_decap(&pkt, skb);
	return NF_ACCEPT;
}

/**
 * hm_nf_forward() - transit: Incremental Trace
 * @priv: unused
 * @skb: the packet, routed, hop limit already decremented
 * @state: hook state (in: ingress device, out: egress device)
 *
 * Return: NF_ACCEPT, always.
 */
static unsigned int hm_nf_forward(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	struct hopmark_net *hn = hm_pernet(state->net);
	struct hm_ioam_opt opt;
	struct hm_if *hif;
	struct hm_pkt pkt;
	int err;

	if (ipv6_hdr(skb)->nexthdr != HM_NEXTHDR_HOP || !state->in)
		return NF_ACCEPT;
	hif = hm_if_lookup_rcu(hn, state->in->ifindex);
	if (!(hm_features(hif) & HOPMARK_IF_F_INCREMENTAL) ||
	    !hm_pkt_init(&pkt, skb, state))
		return NF_ACCEPT;
	err = hm_hbh_find_ioam(skb, HM_IOAM_OPT_INCREMENTAL_TRACE, -1, &opt);
	if (err == -EBADMSG) {
		hm_count(hn, hif, HOPMARK_CNT_MALFORMED);
		return NF_ACCEPT;
	}
	if (err)
		return NF_ACCEPT;
	if (hm_is_fragment(skb)) {
		hm_count(hn, hif, HOPMARK_CNT_FRAGMENT);
		return NF_ACCEPT;
	}
	hm_incr_transit(&pkt, skb, &opt);
	return NF_ACCEPT;
}

/**
 * hm_nf_local_in() - destination: Incremental Trace sink, SRH O-flag
 * @priv: unused
 * @skb: the packet, addressed to this node
 * @state: hook state
 *
 * Return: NF_ACCEPT, always.
 */
static unsigned int hm_nf_local_in(void *priv, struct sk_buff *skb,
				   const struct nf_hook_state *state)
{
	struct hopmark_net *hn = hm_pernet(state->net);
	struct hm_ioam_opt opt;
	struct hm_if *hif;
	struct hm_pkt pkt;
	u32 f;
	int err;

	if (!state->in)
		return NF_ACCEPT;
	hif = hm_if_lookup_rcu(hn, state->in->ifindex);
	f = hm_features(hif) & (HOPMARK_IF_F_INCREMENTAL | HOPMARK_IF_F_SRH_OFLAG);
	if (!f || !hm_pkt_init(&pkt, skb, state))
		return NF_ACCEPT;
	if ((f & HOPMARK_IF_F_INCREMENTAL) &&
	    ipv6_hdr(skb)->nexthdr == HM_NEXTHDR_HOP) {
		err = hm_hbh_find_ioam(skb, HM_IOAM_OPT_INCREMENTAL_TRACE, -1, &opt);
		if (!err)
			hm_incr_sink(&pkt, skb, &opt);
		else if (err == -EBADMSG)
			hm_count(hn, hif, HOPMARK_CNT_MALFORMED);
	}
	if (f & HOPMARK_IF_F_SRH_OFLAG)
		hm_srh_oflag(&pkt, skb);
	return NF_ACCEPT;
}

/**
 * hm_nf_post_routing() - encapsulating node: E2E, DEX, Incremental Trace
 * @priv: unused
 * @skb: the packet, routed
 * @state: hook state (out: egress device)
 *
 * Link-scope packets (hm_encap_link_scope(): neighbour discovery, MLD,
 * link-local addresses) are never encapsulated: the IOAM domain is routed
 * unicast traffic. That and the fragment check are made once per packet,
 * before the option handlers, so a fragment is counted once.
 *
 * Return: NF_ACCEPT, always.
 */
static unsigned int hm_nf_post_routing(void *priv, struct sk_buff *skb,
				       const struct nf_hook_state *state)
{
	struct hopmark_net *hn = hm_pernet(state->net);
	struct hm_if *hif;
	struct hm_pkt pkt;
	u32 f;

	if (!state->out)
		return NF_ACCEPT;
	hif = hm_if_lookup_rcu(hn, state->out->ifindex);
	f = hm_features(hif) & (HOPMARK_IF_F_E2E_ENCAP | HOPMARK_IF_F_DEX_ENCAP |
				HOPMARK_IF_F_INCREMENTAL_ENCAP);
	if (!f || !hm_pkt_init(&pkt, skb, state))
		return NF_ACCEPT;
	if (hm_encap_link_scope(skb))
		return NF_ACCEPT;
	if (hm_is_fragment(skb)) {
		hm_count(hn, hif, HOPMARK_CNT_FRAGMENT);
		return NF_ACCEPT;
	}
	if (f & HOPMARK_IF_F_E2E_ENCAP)
		hm_e2e_encap(&pkt, skb);
	if (f & HOPMARK_IF_F_DEX_ENCAP)
		hm_dex_encap(&pkt, skb);
	if (f & HOPMARK_IF_F_INCREMENTAL_ENCAP)
		hm_incr_encap(&pkt, skb);
	return NF_ACCEPT;
}

static const struct nf_hook_ops hm_nf_ops[] = {
	{
		.hook		= hm_nf_pre_routing,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_PRE_ROUTING,
		.priority	= NF_IP6_PRI_CONNTRACK_DEFRAG - 10,
	},
	{
		.hook		= hm_nf_forward,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_FORWARD,
		.priority	= NF_IP6_PRI_LAST - 1,
	},
	{
		.hook		= hm_nf_local_in,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_LOCAL_IN,
		.priority	= NF_IP6_PRI_FIRST + 1,
	},
	{
		.hook		= hm_nf_post_routing,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_POST_ROUTING,
		.priority	= NF_IP6_PRI_NAT_SRC + 10,
	},
};

/**
 * hm_dp_net_init() - register the hooks of a network namespace
 * @net: the namespace
 *
 * Return: 0, -ENOMEM, or the error of nf_register_net_hooks().
 */
static int __net_init hm_dp_net_init(struct net *net)
{
	struct hm_dp_net *dn = net_generic(net, hm_dp_net_id);
	int err;

	err = hm_flows_init(&dn->flows);
	if (err)
		return err;
	err = nf_register_net_hooks(net, hm_nf_ops, ARRAY_SIZE(hm_nf_ops));
	if (err)
		hm_flows_free(&dn->flows);
	return err;
}

/**
 * hm_dp_net_exit() - unregister the hooks of a network namespace
 * @net: the namespace
 *
 * nf_unregister_net_hooks() waits for a grace period, so no hook still
 * uses the flow slots when they are freed.
 */
static void __net_exit hm_dp_net_exit(struct net *net)
{
	struct hm_dp_net *dn = net_generic(net, hm_dp_net_id);

	nf_unregister_net_hooks(net, hm_nf_ops, ARRAY_SIZE(hm_nf_ops));
	hm_flows_free(&dn->flows);
}

static struct pernet_operations hm_dp_net_ops = {
	.init	= hm_dp_net_init,
	.exit	= hm_dp_net_exit,
	.id	= &hm_dp_net_id,
	.size	= sizeof(struct hm_dp_net),
};

/**
 * hm_datapath_init() - start the datapath in every network namespace
 *
 * Context: module load, from hopmark_init() once the core (per-netns state,
 * genetlink family) is ready.
 *
 * Return: 0 or the error of register_pernet_subsys().
 */
int hm_datapath_init(void)
{
	hm_flow_seed_init();
	return register_pernet_subsys(&hm_dp_net_ops);
}

/**
 * hm_datapath_exit() - remove the hooks from every network namespace
 */
void hm_datapath_exit(void)
{
	unregister_pernet_subsys(&hm_dp_net_ops);
}
