-- SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
--
-- schema.sql - hopmark-collector's PostgreSQL output (collector/out_pg.c,
-- Documentation/collector.rst "PostgreSQL"): one row per stitched packet,
-- one per hop of it, one per flow. out_pg.c creates these tables when they
-- do not exist (the same text, compiled in), so a fresh database needs
-- nothing but this file or the collector. Times are POSIX ns (bigint), as
-- the postcards carry them; unsigned 32-bit values are bigint so that none
-- wraps negative.
--
-- A packet is identified by its flow key, its packet ID and the time of its
-- first postcard: the packet ID alone repeats within a flow (a 32-bit hash,
-- lib/pbt/pbt_id.h), the time tells those apart. The key is the primary key
-- of packets, so a path written twice (a broker worker's postcards
-- redelivered after it died, Documentation/collector-scaleout.rst) is
-- stored once; out_pg.c counts the second as a duplicate.

CREATE TABLE IF NOT EXISTS packets (
	family		smallint NOT NULL,	-- 4 or 6
	proto		smallint NOT NULL,	-- IP protocol
	saddr		inet NOT NULL,		-- source address
	daddr		inet NOT NULL,		-- destination address
	sport		integer NOT NULL,	-- source port (0: no ports)
	dport		integer NOT NULL,	-- destination port
	pkt_id		bigint NOT NULL,	-- packet ID, 0..2^32-1
	first_ns	bigint NOT NULL,	-- earliest postcard's time
	nr_hops		smallint NOT NULL,	-- hops that reported
	drop_kind	smallint NOT NULL,	-- HMC_DROP_*: 0 none (reached the end node),
						-- 1 in a node, 2 on a link, 3 unknown
	drop_node	bigint,			-- node ID of the last hop that reported,
						-- when drop_kind is not 0
	dups		integer NOT NULL,	-- duplicate postcards the stitcher dropped
	path		bigint[] NOT NULL,	-- node IDs in path order
	PRIMARY KEY (family, proto, saddr, daddr, sport, dport, pkt_id, first_ns)
);

CREATE TABLE IF NOT EXISTS hops (
	family		smallint NOT NULL,	-- the packet's key, as in packets
	proto		smallint NOT NULL,
	saddr		inet NOT NULL,
	daddr		inet NOT NULL,
	sport		integer NOT NULL,
	dport		integer NOT NULL,
	pkt_id		bigint NOT NULL,
	first_ns	bigint NOT NULL,
	hop		smallint NOT NULL,	-- 0 = first node of the path
	node_id		bigint NOT NULL,	-- node ID
	ttl		smallint NOT NULL,	-- TTL / Hop Limit at the node
	points		smallint NOT NULL,	-- 1 ingress, 2 egress, 3 both reported
	in_if		bigint,			-- ingressInterface (NULL: unknown)
	out_if		bigint,			-- egressInterface (NULL: unknown)
	in_ns		bigint,			-- ingress postcard's time (NULL: none)
	out_ns		bigint,			-- egress postcard's time (NULL: none)
	qdepth		bigint,			-- queue depth at egress, bytes (NULL: unknown)
	node_ns		bigint,			-- out_ns - in_ns: time inside the node
	link_ns		bigint,			-- in_ns - the previous hop's out_ns:
						-- time on the link before this node
	PRIMARY KEY (family, proto, saddr, daddr, sport, dport, pkt_id, first_ns, hop),
	FOREIGN KEY (family, proto, saddr, daddr, sport, dport, pkt_id, first_ns)
		REFERENCES packets ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS flows (
	family		smallint NOT NULL,	-- flow key, as in packets
	proto		smallint NOT NULL,
	saddr		inet NOT NULL,
	daddr		inet NOT NULL,
	sport		integer NOT NULL,
	dport		integer NOT NULL,
	packets		bigint NOT NULL,	-- packets stored (duplicates not counted)
	complete	bigint NOT NULL,	-- of which reached the end node
	drops_in_node	bigint NOT NULL,	-- drop_kind 1
	drops_on_link	bigint NOT NULL,	-- drop_kind 2
	drops_unknown	bigint NOT NULL,	-- drop_kind 3
	first_ns	bigint NOT NULL,	-- earliest packet's first_ns
	last_ns		bigint NOT NULL,	-- latest packet's first_ns
	last_path	bigint[] NOT NULL,	-- that packet's node IDs
	PRIMARY KEY (family, proto, saddr, daddr, sport, dport)
);
