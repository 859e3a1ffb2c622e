-- SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
--
-- hopmark-int.lua - a Wireshark (4.0 and later, Lua 5.2) dissector for
-- P4.org In-band Network Telemetry v2.1 over TCP and UDP (INT.mdk, footer
-- 2020-11-11, §5.7.2 shim, §5.8 INT-MD, §5.9 INT-MX) and for Telemetry
-- Report v2.0 (telemetry_report.mdk, footer 2020-10-08, §3.2 group header,
-- §3.3 individual reports). The wire format is the one of lib/int/int.h;
-- every field is big-endian.
--
-- How a packet is recognised (one signalling method per domain, INT §5.7.2),
-- all three set as preferences (Edit > Preferences > Protocols > INT, or
-- tshark -o hopmark_int.NAME:VALUE):
--   hopmark_int.dscp, hopmark_int.dscp_mask	a TCP or UDP packet whose
--	DSCP / Traffic Class satisfies (DSCP & mask) == (value & mask) carries
--	the shim after its TCP header (options included) or UDP header (NPT=0).
--	Mask 0 turns DSCP signalling off.
--   hopmark_int.udp_port	a UDP packet to this destination port carries the
--	shim after the UDP header (NPT=1: original port in the shim; NPT=2:
--	the original L4 header follows the INT data). 0: off.
--   hopmark_int.report_port	a UDP packet to this destination port is a
--	Telemetry Report. 0: off.
-- TCP and UDP try port-registered dissectors before heuristic ones; for a
-- DSCP-signalled packet on a port another dissector claims, set
-- tcp.try_heuristic_first / udp.try_heuristic_first.
--
-- Field names: hopmark_int.shim.*, hopmark_int.md.*, hopmark_int.mx.*, one
-- hopmark_int.hop subtree per hop holding hopmark_int.hop.<key>, and
-- hopmark_int_report.group.*, hopmark_int_report.rep.*,
-- hopmark_int_report.md.<key>. Each <key> is the JSON key
-- `hopmark decode -j` prints for the field (Documentation/int.rst,
-- "Wireshark dissector").
--
-- Malformed input (a shim shorter than 4 octets, a Length beyond the packet,
-- a Hop ML below the bitmap's words, a report running past the datagram...)
-- gets expert info; every access is bounds-checked first, so no input
-- raises a Lua error.

local band = bit32 and bit32.band or bit.band
local rshift = bit32 and bit32.rshift or bit.rshift

-- ---------------------------------------------------------------- protocols

local p_int = Proto("hopmark_int", "In-band Network Telemetry v2.1")
local p_rpt = Proto("hopmark_int_report", "Telemetry Report v2.0")

local INT_TYPE = { [1] = "INT-MD", [2] = "Destination", [3] = "INT-MX" }
local INT_NPT = {
	[0] = "DSCP signalling: original DSCP in the shim",
	[1] = "UDP payload follows: original destination port in the shim",
	[2] = "L4 header follows: original IP protocol in the shim",
	[3] = "reserved",
}
local REP_TYPE = { [0] = "Inner Only", [1] = "INT", [2] = "IOAM" }
local IN_TYPE = {
	[0] = "None", [1] = "TLV", [2] = "Domain Specific Extension Data",
	[3] = "Ethernet", [4] = "IPv4", [5] = "IPv6",
}
local TLV_TYPE = {
	[0] = "Domain Specific Extension Data", [1] = "Ethernet",
	[2] = "IPv4", [3] = "IPv6",
}

-- One definition per metadata field (INT §5.8 bitmap bit, Report §3.3.1
-- RepMdBits bit): key, label, octets, and the sub-fields of a 4-octet pair.
-- Bits 9-14 are reserved (4 octets each when honoured); bit 15 is the
-- Checksum Complement in INT-MD and Queue ID + Drop Reason in a report.
local MD_BITS = {
	[0] = { key = "node_id", name = "Node ID", size = 4 },
	[1] = { size = 4, pair = {
		{ key = "l1_ingress", name = "Level 1 Ingress Interface ID", bits = 16 },
		{ key = "l1_egress", name = "Level 1 Egress Interface ID", bits = 16 } } },
	[2] = { key = "hop_latency", name = "Hop Latency", size = 4 },
	[3] = { size = 4, pair = {
		{ key = "queue_id", name = "Queue ID", bits = 8 },
		{ key = "queue_occupancy", name = "Queue Occupancy", bits = 24 } } },
	[4] = { key = "ingress_ts", name = "Ingress Timestamp", size = 8 },
	[5] = { key = "egress_ts", name = "Egress Timestamp", size = 8 },
	[6] = { size = 8, pair = {
		{ key = "l2_ingress", name = "Level 2 Ingress Interface ID", bits = 32 },
		{ key = "l2_egress", name = "Level 2 Egress Interface ID", bits = 32 } } },
	[7] = { key = "tx_util", name = "Egress Interface TX Utilization", size = 4 },
	[8] = { size = 4, pair = {
		{ key = "buffer_id", name = "Buffer ID", bits = 8 },
		{ key = "buffer_occupancy", name = "Buffer Occupancy", bits = 24 } } },
}

local function md_proto_fields(prefix, fields_out)
	local f = {}
	local function add(key, name, bits, mask)
		local abbr = prefix .. key
		local pf
		if bits == 64 then
			pf = ProtoField.uint64(abbr, name, base.DEC)
		elseif bits == 32 then
			pf = ProtoField.uint32(abbr, name, base.DEC)
		elseif bits == 24 then
			pf = ProtoField.uint24(abbr, name, base.DEC)
		elseif bits == 16 then
			pf = ProtoField.uint16(abbr, name, base.DEC)
		else
			pf = ProtoField.uint8(abbr, name, base.DEC)
		end
		f[key] = pf
		fields_out[#fields_out + 1] = pf
	end
	for bit = 0, 8 do
		local d = MD_BITS[bit]
		if d.pair then
			for _, s in ipairs(d.pair) do
				add(s.key, s.name, s.bits)
			end
		else
			add(d.key, d.name, d.size * 8)
		end
	end
	return f
end

-- ---------------------------------------------------------- INT fields

local F = {}
local int_fields = {}
local function reg(list, key, pf)
	F[key] = pf
	list[#list + 1] = pf
	return pf
end

reg(int_fields, "shim", ProtoField.bytes("hopmark_int.shim", "Shim", base.NONE))
reg(int_fields, "shim.type", ProtoField.uint8("hopmark_int.shim.type", "Type", base.DEC, INT_TYPE, 0xf0))
reg(int_fields, "shim.npt", ProtoField.uint8("hopmark_int.shim.npt", "Next Protocol Type (NPT)", base.DEC, INT_NPT, 0x0c))
reg(int_fields, "shim.r", ProtoField.uint8("hopmark_int.shim.r", "Reserved", base.DEC, nil, 0x03))
reg(int_fields, "shim.len", ProtoField.uint8("hopmark_int.shim.len", "Length (4-octet words after the shim)", base.DEC))
reg(int_fields, "shim.orig_dscp", ProtoField.uint8("hopmark_int.shim.orig_dscp", "Original DSCP", base.HEX, nil, 0xfc))
reg(int_fields, "shim.orig_dport", ProtoField.uint16("hopmark_int.shim.orig_dport", "Original UDP Destination Port", base.DEC))
reg(int_fields, "shim.orig_proto", ProtoField.uint8("hopmark_int.shim.orig_proto", "Original IP Protocol", base.DEC))
reg(int_fields, "shim.npt_field", ProtoField.uint16("hopmark_int.shim.npt_field", "NPT-dependent field", base.HEX))

reg(int_fields, "md", ProtoField.bytes("hopmark_int.md", "INT-MD Metadata Header", base.NONE))
reg(int_fields, "md.ver", ProtoField.uint32("hopmark_int.md.ver", "Ver", base.DEC, nil, 0xf0000000))
reg(int_fields, "md.d", ProtoField.uint32("hopmark_int.md.d", "D (discard at the sink)", base.DEC, nil, 0x08000000))
reg(int_fields, "md.e", ProtoField.uint32("hopmark_int.md.e", "E (max hop count exceeded)", base.DEC, nil, 0x04000000))
reg(int_fields, "md.m", ProtoField.uint32("hopmark_int.md.m", "M (MTU exceeded)", base.DEC, nil, 0x02000000))
reg(int_fields, "md.reserved", ProtoField.uint32("hopmark_int.md.reserved", "Reserved", base.HEX, nil, 0x01ffe000))
reg(int_fields, "md.hop_ml", ProtoField.uint32("hopmark_int.md.hop_ml", "Hop ML (words per hop)", base.DEC, nil, 0x00001f00))
reg(int_fields, "md.rhc", ProtoField.uint32("hopmark_int.md.rhc", "Remaining Hop Count", base.DEC, nil, 0x000000ff))
reg(int_fields, "md.bitmap", ProtoField.uint16("hopmark_int.md.bitmap", "Instruction Bitmap", base.HEX))
reg(int_fields, "md.ds_id", ProtoField.uint16("hopmark_int.md.ds_id", "Domain Specific ID", base.DEC))
reg(int_fields, "md.ds_instruction", ProtoField.uint16("hopmark_int.md.ds_instruction", "DS Instruction", base.HEX))
reg(int_fields, "md.ds_flags", ProtoField.uint16("hopmark_int.md.ds_flags", "DS Flags", base.HEX))

reg(int_fields, "mx", ProtoField.bytes("hopmark_int.mx", "INT-MX Header", base.NONE))
reg(int_fields, "mx.ver", ProtoField.uint32("hopmark_int.mx.ver", "Ver", base.DEC, nil, 0xf0000000))
reg(int_fields, "mx.d", ProtoField.uint32("hopmark_int.mx.d", "D (discard at the sink)", base.DEC, nil, 0x08000000))
reg(int_fields, "mx.reserved", ProtoField.uint32("hopmark_int.mx.reserved", "Reserved", base.HEX, nil, 0x07ffffff))
reg(int_fields, "mx.bitmap", ProtoField.uint16("hopmark_int.mx.bitmap", "Instruction Bitmap", base.HEX))
reg(int_fields, "mx.ds_id", ProtoField.uint16("hopmark_int.mx.ds_id", "Domain Specific ID", base.DEC))
reg(int_fields, "mx.ds_instruction", ProtoField.uint16("hopmark_int.mx.ds_instruction", "DS Instruction", base.HEX))
reg(int_fields, "mx.ds_flags", ProtoField.uint16("hopmark_int.mx.ds_flags", "DS Flags", base.HEX))
reg(int_fields, "source_data", ProtoField.bytes("hopmark_int.source_data",
	"Source-only (INT-MD) / source-inserted (INT-MX) metadata", base.NONE))
reg(int_fields, "stack_rest", ProtoField.bytes("hopmark_int.stack_rest", "Stack octets not a whole hop", base.NONE))

reg(int_fields, "dst", ProtoField.bytes("hopmark_int.dst", "Destination header (format undefined in v2.1)", base.NONE))

reg(int_fields, "hop", ProtoField.bytes("hopmark_int.hop", "Hop", base.NONE))
reg(int_fields, "hop.index", ProtoField.uint8("hopmark_int.hop.index", "Position in the stack (0 = most recent)", base.DEC))
local HOP = md_proto_fields("hopmark_int.hop.", int_fields)
reg(int_fields, "hop.reserved", ProtoField.uint32("hopmark_int.hop.reserved", "Reserved-bit metadata", base.HEX))
reg(int_fields, "hop.ds_md", ProtoField.bytes("hopmark_int.hop.ds_md", "Domain Specific metadata", base.NONE))
reg(int_fields, "hop.csum_complement", ProtoField.uint32("hopmark_int.hop.csum_complement", "Checksum Complement", base.HEX))
reg(int_fields, "hop.data", ProtoField.bytes("hopmark_int.hop.data", "Hop metadata not decodable", base.NONE))
p_int.fields = int_fields

-- ------------------------------------------------------- report fields

local G = {}
local rpt_fields = {}
local function regr(list, key, pf)
	G[key] = pf
	list[#list + 1] = pf
	return pf
end
regr(rpt_fields, "group", ProtoField.bytes("hopmark_int_report.group", "Telemetry Group Header", base.NONE))
regr(rpt_fields, "group.ver", ProtoField.uint32("hopmark_int_report.group.ver", "Ver", base.DEC, nil, 0xf0000000))
regr(rpt_fields, "group.hw_id", ProtoField.uint32("hopmark_int_report.group.hw_id", "hw_id", base.DEC, nil, 0x0fc00000))
regr(rpt_fields, "group.seq", ProtoField.uint32("hopmark_int_report.group.seq", "Sequence Number", base.DEC, nil, 0x003fffff))
regr(rpt_fields, "group.node_id", ProtoField.uint32("hopmark_int_report.group.node_id", "Node ID", base.DEC))

regr(rpt_fields, "rep", ProtoField.bytes("hopmark_int_report.rep", "Individual Report", base.NONE))
regr(rpt_fields, "rep.rep_type", ProtoField.uint8("hopmark_int_report.rep.rep_type", "RepType", base.DEC, REP_TYPE, 0xf0))
regr(rpt_fields, "rep.in_type", ProtoField.uint8("hopmark_int_report.rep.in_type", "InType", base.DEC, IN_TYPE, 0x0f))
regr(rpt_fields, "rep.len", ProtoField.uint8("hopmark_int_report.rep.len", "Report Length (words after the first)", base.DEC))
regr(rpt_fields, "rep.md_len", ProtoField.uint8("hopmark_int_report.rep.md_len", "MD Length (words)", base.DEC))
regr(rpt_fields, "rep.d", ProtoField.uint8("hopmark_int_report.rep.d", "D (dropped)", base.DEC, nil, 0x80))
regr(rpt_fields, "rep.q", ProtoField.uint8("hopmark_int_report.rep.q", "Q (congested queue)", base.DEC, nil, 0x40))
regr(rpt_fields, "rep.f", ProtoField.uint8("hopmark_int_report.rep.f", "F (tracked flow)", base.DEC, nil, 0x20))
regr(rpt_fields, "rep.i", ProtoField.uint8("hopmark_int_report.rep.i", "I (intermediate)", base.DEC, nil, 0x10))
regr(rpt_fields, "rep.rsvd", ProtoField.uint8("hopmark_int_report.rep.rsvd", "Reserved", base.HEX, nil, 0x0f))
regr(rpt_fields, "rep.rep_md_bits", ProtoField.uint16("hopmark_int_report.rep.rep_md_bits", "RepMdBits", base.HEX))
regr(rpt_fields, "rep.ds_id", ProtoField.uint16("hopmark_int_report.rep.ds_id", "Domain Specific ID", base.DEC))
regr(rpt_fields, "rep.ds_md_bits", ProtoField.uint16("hopmark_int_report.rep.ds_md_bits", "DSMdBits", base.HEX))
regr(rpt_fields, "rep.ds_md_status", ProtoField.uint16("hopmark_int_report.rep.ds_md_status", "DSMdStatus", base.HEX))
regr(rpt_fields, "rep.inner_len", ProtoField.uint32("hopmark_int_report.rep.inner_len", "Inner contents (octets)", base.DEC))
regr(rpt_fields, "rep.inner", ProtoField.bytes("hopmark_int_report.rep.inner", "Inner contents", base.NONE))
regr(rpt_fields, "rep.contents", ProtoField.bytes("hopmark_int_report.rep.contents", "Contents", base.NONE))

regr(rpt_fields, "md", ProtoField.bytes("hopmark_int_report.md", "Metadata", base.NONE))
local RMD = md_proto_fields("hopmark_int_report.md.", rpt_fields)
regr(rpt_fields, "md.reserved", ProtoField.uint32("hopmark_int_report.md.reserved", "Reserved-bit metadata", base.HEX))
regr(rpt_fields, "md.drop_queue_id", ProtoField.uint8("hopmark_int_report.md.drop_queue_id", "Queue ID (of the drop)", base.DEC))
regr(rpt_fields, "md.drop_reason", ProtoField.uint8("hopmark_int_report.md.drop_reason", "Drop Reason", base.DEC))
regr(rpt_fields, "md.drop_pad", ProtoField.uint16("hopmark_int_report.md.drop_pad", "Padding", base.HEX))
regr(rpt_fields, "md.ds_md", ProtoField.bytes("hopmark_int_report.md.ds_md", "Domain Specific metadata", base.NONE))

regr(rpt_fields, "tlv", ProtoField.bytes("hopmark_int_report.tlv", "TLV", base.NONE))
regr(rpt_fields, "tlv.type", ProtoField.uint8("hopmark_int_report.tlv.type", "TLVType", base.DEC, TLV_TYPE, 0xf0))
regr(rpt_fields, "tlv.len", ProtoField.uint8("hopmark_int_report.tlv.len", "TLVLength (words after the first)", base.DEC))
regr(rpt_fields, "tlv.template", ProtoField.uint16("hopmark_int_report.tlv.template", "TLV Data Template", base.HEX))
regr(rpt_fields, "tlv.data", ProtoField.bytes("hopmark_int_report.tlv.data", "TLV data", base.NONE))
p_rpt.fields = rpt_fields

-- ------------------------------------------------------------ expert info

local E = {
	shim_trunc = ProtoExpert.new("hopmark_int.shim_truncated", "INT shim truncated",
		expert.group.MALFORMED, expert.severity.ERROR),
	len_beyond = ProtoExpert.new("hopmark_int.len_beyond_packet", "INT Length beyond the IP packet",
		expert.group.MALFORMED, expert.severity.ERROR),
	capture = ProtoExpert.new("hopmark_int.capture_short", "INT data cut short by the capture",
		expert.group.MALFORMED, expert.severity.ERROR),
	len_short = ProtoExpert.new("hopmark_int.len_short", "INT Length shorter than the header",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_type = ProtoExpert.new("hopmark_int.bad_type", "INT shim Type not MD or MX",
		expert.group.MALFORMED, expert.severity.WARN),
	bad_ver = ProtoExpert.new("hopmark_int.bad_version", "INT header Ver is not 2",
		expert.group.MALFORMED, expert.severity.WARN),
	npt = ProtoExpert.new("hopmark_int.npt_mismatch", "NPT disagrees with the signalling",
		expert.group.PROTOCOL, expert.severity.WARN),
	rsvd = ProtoExpert.new("hopmark_int.reserved_set", "Reserved bits set",
		expert.group.PROTOCOL, expert.severity.NOTE),
	hop_ml = ProtoExpert.new("hopmark_int.hop_ml_bad", "Hop ML inconsistent with the Instruction Bitmap",
		expert.group.MALFORMED, expert.severity.ERROR),
	stack = ProtoExpert.new("hopmark_int.stack_bad", "Stack not a multiple of Hop ML words",
		expert.group.MALFORMED, expert.severity.ERROR),
	e_set = ProtoExpert.new("hopmark_int.e_set", "Max hop count exceeded (E)",
		expert.group.SEQUENCE, expert.severity.NOTE),
	m_set = ProtoExpert.new("hopmark_int.m_set", "MTU exceeded (M)",
		expert.group.SEQUENCE, expert.severity.NOTE),
	after = ProtoExpert.new("hopmark_int.after_malformed", "The packet after the INT data is malformed",
		expert.group.MALFORMED, expert.severity.ERROR),
}
p_int.experts = { E.shim_trunc, E.len_beyond, E.capture, E.len_short, E.bad_type, E.bad_ver,
	E.npt, E.rsvd, E.hop_ml, E.stack, E.e_set, E.m_set, E.after }

local R = {
	group_trunc = ProtoExpert.new("hopmark_int_report.group_truncated", "Telemetry Group Header truncated",
		expert.group.MALFORMED, expert.severity.ERROR),
	bad_ver = ProtoExpert.new("hopmark_int_report.bad_version", "Telemetry Report Ver is not 2",
		expert.group.MALFORMED, expert.severity.WARN),
	hdr_trunc = ProtoExpert.new("hopmark_int_report.hdr_truncated", "Individual Report Header truncated",
		expert.group.MALFORMED, expert.severity.ERROR),
	len_beyond = ProtoExpert.new("hopmark_int_report.len_beyond_packet", "Report Length beyond the datagram",
		expert.group.MALFORMED, expert.severity.ERROR),
	main = ProtoExpert.new("hopmark_int_report.main_short", "RepType 1 report shorter than its main contents and MD Length",
		expert.group.MALFORMED, expert.severity.ERROR),
	md_len = ProtoExpert.new("hopmark_int_report.md_len_bad", "MD Length inconsistent with RepMdBits or RepType",
		expert.group.MALFORMED, expert.severity.ERROR),
	bit0 = ProtoExpert.new("hopmark_int_report.rep_md_bit0", "RepMdBits bit 0 is reserved",
		expert.group.PROTOCOL, expert.severity.NOTE),
	rsvd = ProtoExpert.new("hopmark_int_report.reserved_set", "Reserved bits set",
		expert.group.PROTOCOL, expert.severity.NOTE),
	tlv = ProtoExpert.new("hopmark_int_report.tlv_bad", "TLV beyond the report",
		expert.group.MALFORMED, expert.severity.ERROR),
	inner = ProtoExpert.new("hopmark_int_report.inner_malformed", "Inner packet malformed",
		expert.group.MALFORMED, expert.severity.WARN),
}
p_rpt.experts = { R.group_trunc, R.bad_ver, R.hdr_trunc, R.len_beyond, R.main, R.md_len, R.bit0,
	R.rsvd, R.tlv, R.inner }

-- ------------------------------------------------------------ preferences

-- DSCP value and mask are strings so that hex works (-o hopmark_int.dscp:0x17);
-- Wireshark parses uint preferences in decimal only.
p_int.prefs.dscp = Pref.string("INT DSCP value", "0x17",
	"DSCP (6 bits, decimal or 0x hex) marking INT in TCP/UDP packets (NPT=0); the spec's examples use 0x17")
p_int.prefs.dscp_mask = Pref.string("INT DSCP mask", "0x3f",
	"Mask the DSCP is compared under (6 bits, decimal or 0x hex); 0 turns DSCP signalling off. 0x3f is an exact match")
p_int.prefs.source_only = Pref.uint("INT-MD source-only metadata (words)",
	0, "Words of source-only metadata after the INT-MD stack (INT §5.8); the domain defines them, the header does not say")
p_int.prefs.udp_port = Pref.uint("INT UDP destination port",
	0, "UDP destination port marking INT (NPT=1 and NPT=2); 0 turns it off (the spec assigns none)")
p_int.prefs.report_port = Pref.uint("Telemetry Report UDP port",
	0, "UDP destination port of Telemetry Report v2.0 datagrams; 0 turns it off")

-- DSCP / Traffic Class and ports of the packet being dissected.
local fx_ip_dscp = Field.new("ip.dsfield.dscp")
local fx_ip6_dscp = Field.new("ipv6.tclass.dscp")
local fx_udp_dport = Field.new("udp.dstport")
local fx_ip_len = Field.new("ip.len")
local fx_ip6_plen = Field.new("ipv6.plen")

-- The innermost occurrence of a field so far (reports carry packets inside
-- packets): its value and its offset in the frame, or nil.
local function last(fx)
	local all = { fx() }
	local v = all[#all]
	if v == nil then
		return nil, -1
	end
	return v.value, v.offset
end

-- The preferences as numbers (register_ports()).
local sig_cfg = { dscp = 0x17, dscp_mask = 0x3f, source_only = 0 }

local udp_port_table = DissectorTable.get("udp.port")
local ip_proto_table = DissectorTable.get("ip.proto")
local data_dissector = Dissector.get("data")
local registered = { udp_port = 0, report_port = 0 }

-- The Individual Report whose inner packet is being dissected, or nil.
-- tshark 4.0's UDP hands its payload to the top of the tree even when the
-- UDP header is inside a report; INT and reports found in an inner packet
-- go under the report that carries them instead.
local report_ctx = nil

local function report_tree(pinfo)
	if report_ctx and report_ctx.frame == pinfo.number then
		return report_ctx.tree
	end
	return nil
end

-- Octets from the start of tvb to the end of the IP packet holding it, as
-- the innermost IP header's length says (an inner packet of a report is
-- truncated on purpose: its IP header still gives the whole length), or
-- what the tvb reports when no IP header precedes it.
local function ip_remaining(tvb)
	local l4, at4 = last(fx_ip_len)
	local l6, at6 = last(fx_ip6_plen)
	local ip_end
	if l4 ~= nil and at4 > at6 then
		ip_end = at4 - 2 + l4
	elseif l6 ~= nil then
		ip_end = at6 - 4 + 40 + l6
	end
	if ip_end == nil then
		return tvb:reported_length_remaining()
	end
	return ip_end - tvb:offset()
end

-- ---------------------------------------------------- metadata decoding

local function bit_set(bm, bit)
	return band(bm, rshift(0x8000, bit)) ~= 0
end

local function bitmap_words(bm)
	local w = 0
	for bit = 0, 15 do
		if bit_set(bm, bit) then
			w = w + ((bit >= 4 and bit <= 6) and 2 or 1)
		end
	end
	return w
end

-- Add the baseline metadata of bits 0-14 of bm at tvb(off), within lim
-- octets, to tree with the field set fs (HOP or RMD) and the reserved-bit
-- field rsvd_f.
-- Return: the offset after them, or nil when they do not fit.
local function add_baseline(tvb, tree, off, lim, bm, fs, rsvd_f)
	for bit = 0, 14 do
		if bit_set(bm, bit) then
			local d = MD_BITS[bit]
			local size = d and d.size or 4
			if off + size > lim then
				return nil
			end
			if not d then
				tree:add(rsvd_f, tvb(off, 4))
			elseif d.pair then
				local a, b = d.pair[1], d.pair[2]
				if a.bits == 8 then
					tree:add(fs[a.key], tvb(off, 1))
					tree:add(fs[b.key], tvb(off + 1, 3))
				else
					local h = size / 2
					tree:add(fs[a.key], tvb(off, h))
					tree:add(fs[b.key], tvb(off + h, h))
				end
			else
				tree:add(fs[d.key], tvb(off, size))
			end
			off = off + size
		end
	end
	return off
end

-- ----------------------------------------------------------- INT header

-- One hop's Hop ML words at tvb(off): the bitmap's fields in ascending bit
-- order, then DS metadata, then the Checksum Complement last (INT §5.8).
local function dissect_hop(tvb, pinfo, tree, off, hop_len, bm, idx)
	local ht = tree:add(F["hop"], tvb(off, hop_len))
	ht:set_text(string.format("Hop %d%s", idx, idx == 0 and " (most recent)" or ""))
	ht:add(F["hop.index"], idx):set_generated()
	local lim = off + hop_len
	local words = bitmap_words(bm)
	if words * 4 > hop_len then
		ht:add(F["hop.data"], tvb(off, hop_len))
		return
	end
	local o = add_baseline(tvb, ht, off, lim, bm, HOP, F["hop.reserved"])
	local csum = bit_set(bm, 15) and 4 or 0
	if lim - csum > o then
		ht:add(F["hop.ds_md"], tvb(o, lim - csum - o))
	end
	if csum ~= 0 then
		ht:add(F["hop.csum_complement"], tvb(lim - 4, 4))
	end
end

-- The INT-MD header and stack in tvb(off, total) (INT §5.8).
local function dissect_md(tvb, pinfo, tree, off, total)
	local ht = tree:add(F["md"], tvb(off, 12))
	local w0r = tvb(off, 4)
	local w0 = w0r:uint()
	ht:add(F["md.ver"], w0r)
	ht:add(F["md.d"], w0r)
	ht:add(F["md.e"], w0r)
	ht:add(F["md.m"], w0r)
	local ri = ht:add(F["md.reserved"], w0r)
	if band(w0, 0x01ffe000) ~= 0 then
		ri:add_proto_expert_info(E.rsvd, "Reserved bits 7-18 of the INT-MD header are not 0")
	end
	ht:add(F["md.hop_ml"], w0r)
	ht:add(F["md.rhc"], w0r)
	local bm = tvb(off + 4, 2):uint()
	local bi = ht:add(F["md.bitmap"], tvb(off + 4, 2))
	ht:add(F["md.ds_id"], tvb(off + 6, 2))
	ht:add(F["md.ds_instruction"], tvb(off + 8, 2))
	ht:add(F["md.ds_flags"], tvb(off + 10, 2))
	if rshift(w0, 28) ~= 2 then
		ht:add_proto_expert_info(E.bad_ver, string.format("INT-MD Ver %d, not 2", rshift(w0, 28)))
	end
	if band(w0, 0x04000000) ~= 0 then
		ht:add_proto_expert_info(E.e_set)
	end
	if band(w0, 0x02000000) ~= 0 then
		ht:add_proto_expert_info(E.m_set)
	end

	local hop_ml = band(rshift(w0, 8), 0x1f)
	local words = bitmap_words(bm)
	local ds_id = tvb(off + 6, 2):uint()
	-- Hop ML = the bitmap's words + DS words; DS ID 0 has no DS metadata.
	if hop_ml < words or (ds_id == 0 and hop_ml ~= words) then
		bi:add_proto_expert_info(E.hop_ml, string.format(
			"Hop ML %d is inconsistent with the %d words bitmap 0x%04x asks for (DS ID %d)",
			hop_ml, words, bm, ds_id))
	end
	-- The stack, then the source-only metadata (hopmark_int.source_only
	-- words: their length is the domain's, INT §5.8).
	local src = sig_cfg.source_only * 4
	local stack_off, stack_len = off + 12, total - 12 - src
	if stack_len < 0 then
		ht:add_proto_expert_info(E.stack, string.format(
			"%d octets after the header, fewer than the %d source-only octets",
			total - 12, src))
		if total > 12 then
			tree:add(F["stack_rest"], tvb(off + 12, total - 12))
		end
		return 0
	end
	local n, rest = 0, stack_len
	if hop_ml > 0 and hop_ml >= words then
		local hop_len = hop_ml * 4
		n = math.floor(stack_len / hop_len)
		for i = 0, n - 1 do
			dissect_hop(tvb, pinfo, tree, stack_off + i * hop_len, hop_len, bm, i)
		end
		rest = stack_len - n * hop_len
	end
	if rest > 0 then
		local ri = tree:add(F["stack_rest"], tvb(stack_off + stack_len - rest, rest))
		if hop_ml == 0 or hop_ml >= words then
			ri:add_proto_expert_info(E.stack, string.format(
				"Stack of %d octets is not a multiple of Hop ML %d words", stack_len, hop_ml))
		end
	end
	if src > 0 then
		tree:add(F["source_data"], tvb(stack_off + stack_len, src))
	end
	return n
end

-- The INT-MX header and source-inserted data in tvb(off, total) (INT §5.9).
local function dissect_mx(tvb, pinfo, tree, off, total)
	local ht = tree:add(F["mx"], tvb(off, 12))
	local w0r = tvb(off, 4)
	local w0 = w0r:uint()
	ht:add(F["mx.ver"], w0r)
	ht:add(F["mx.d"], w0r)
	local ri = ht:add(F["mx.reserved"], w0r)
	if band(w0, 0x07ffffff) ~= 0 then
		ri:add_proto_expert_info(E.rsvd, "Reserved bits 5-31 of the INT-MX header are not 0")
	end
	ht:add(F["mx.bitmap"], tvb(off + 4, 2))
	ht:add(F["mx.ds_id"], tvb(off + 6, 2))
	ht:add(F["mx.ds_instruction"], tvb(off + 8, 2))
	ht:add(F["mx.ds_flags"], tvb(off + 10, 2))
	if rshift(w0, 28) ~= 2 then
		ht:add_proto_expert_info(E.bad_ver, string.format("INT-MX Ver %d, not 2", rshift(w0, 28)))
	end
	if total > 12 then
		tree:add(F["source_data"], tvb(off + 12, total - 12))
	end
end

-- The shim and what follows it, at the start of tvb; sig is how the packet
-- was recognised ("dscp" or "udp"), l4 the protocol it follows (6 or 17).
-- Return: octets consumed.
local function dissect_int(tvb, pinfo, tree, sig)
	local avail = tvb:len()
	tree = report_tree(pinfo) or tree
	local tree_int = tree:add(p_int, tvb(0, math.min(avail, 4)))
	pinfo.cols.protocol:set("INT")
	-- Reported: the octets the IP header says follow; avail: captured.
	local reported = ip_remaining(tvb)
	if avail < 4 then
		if avail > 0 then
			tree_int:add(F["shim"], tvb(0, avail))
		end
		if reported < 4 then
			tree_int:add_proto_expert_info(E.shim_trunc, string.format(
				"INT shim truncated: %d of 4 octets", avail))
			pinfo.cols.info:set(string.format("INT shim truncated (%d of 4 octets)", avail))
		else
			tree_int:add_proto_expert_info(E.capture, string.format(
				"INT shim cut short by the capture: %d of 4 octets captured", avail))
			pinfo.cols.info:set("INT shim cut short by the capture")
		end
		return avail
	end
	local st = tree_int:add(F["shim"], tvb(0, 4))
	local b0 = tvb(0, 1):uint()
	local itype, npt = rshift(b0, 4), band(rshift(b0, 2), 3)
	local len = tvb(1, 1):uint()
	st:add(F["shim.type"], tvb(0, 1))
	st:add(F["shim.npt"], tvb(0, 1))
	local ri = st:add(F["shim.r"], tvb(0, 1))
	if band(b0, 3) ~= 0 then
		ri:add_proto_expert_info(E.rsvd, "Reserved bits 6-7 of the shim are not 0")
	end
	st:add(F["shim.len"], tvb(1, 1))
	if npt == 0 then
		st:add(F["shim.orig_dscp"], tvb(3, 1))
	elseif npt == 1 then
		st:add(F["shim.orig_dport"], tvb(2, 2))
	elseif npt == 2 then
		st:add(F["shim.orig_proto"], tvb(3, 1))
	else
		st:add(F["shim.npt_field"], tvb(2, 2))
	end
	if (sig == "dscp" and npt ~= 0) or (sig == "udp" and npt == 0) then
		st:add_proto_expert_info(E.npt, string.format(
			"NPT %d in a packet signalled by %s", npt, sig == "dscp" and "DSCP" or "UDP port"))
	end

	local total = len * 4
	local name = INT_TYPE[itype] or string.format("Type %d", itype)
	local info = string.format("%s NPT=%d Length=%d", name, npt, len)
	if (itype == 1 or itype == 3) and total >= 12 and 4 + total > avail then
		if 4 + total > reported then
			tree_int:add_proto_expert_info(E.len_beyond, string.format(
				"INT Length %d words (%d octets) runs past the %d octets after the shim",
				len, total, reported - 4))
		else
			tree_int:add_proto_expert_info(E.capture, string.format(
				"INT Length %d words (%d octets): only %d octets after the shim captured",
				len, total, avail - 4))
		end
		tree_int:set_len(avail)
		if avail > 4 then
			tree_int:add(F["hop.data"], tvb(4, avail - 4))
		end
		pinfo.cols.info:set(info .. " [Length beyond the packet]")
		return avail
	end
	local shown = math.min(total, avail - 4)
	tree_int:set_len(4 + shown)
	if itype ~= 1 and itype ~= 3 then
		tree_int:add_proto_expert_info(E.bad_type, string.format("INT shim Type %d", itype))
		if shown > 0 then
			tree_int:add(F["dst"], tvb(4, shown))
		end
		total = shown
	elseif total < 12 then
		tree_int:add_proto_expert_info(E.len_short, string.format(
			"INT Length %d words is shorter than the 3 of the %s header", len, name))
		if shown > 0 then
			tree_int:add(F["hop.data"], tvb(4, shown))
		end
		total = shown
		info = info .. " [Length below the header]"
	elseif itype == 1 then
		local n = dissect_md(tvb, pinfo, tree_int, 4, total)
		info = string.format("%s, %d hop%s", info, n, n == 1 and "" or "s")
	else
		dissect_mx(tvb, pinfo, tree_int, 4, total)
	end
	tree_int:append_text(string.format(", %s", name))
	pinfo.cols.info:set(info)

	-- What follows the INT data (INT §5.7.2), to the dissector it names.
	local rest = 4 + total
	if rest < avail then
		local payload = tvb(rest):tvb()
		local ok, err = pcall(function()
			if npt == 2 then
				local proto = tvb(3, 1):uint()
				if not ip_proto_table:try(proto, payload, pinfo, tree) then
					data_dissector:call(payload, pinfo, tree)
				end
			elseif npt == 1 then
				local port = tvb(2, 2):uint()
				if not (port ~= registered.udp_port and port ~= registered.report_port and
					udp_port_table:try(port, payload, pinfo, tree)) then
					data_dissector:call(payload, pinfo, tree)
				end
			else
				data_dissector:call(payload, pinfo, tree)
			end
		end)
		if not ok then
			tree_int:add_proto_expert_info(E.after, string.format(
				"The packet after the INT data is malformed (%s)", tostring(err):gsub("^.*: ", "")))
		end
	end
	return avail
end

-- The signalling of the packet under this TCP/UDP header, or nil.
local function int_signal(l4)
	local mask = sig_cfg.dscp_mask
	if l4 == 17 and p_int.prefs.udp_port ~= 0 then
		local dport = last(fx_udp_dport)
		if dport == p_int.prefs.udp_port then
			return "udp"
		end
		if dport ~= nil and dport == p_int.prefs.report_port then
			return nil	-- reports are never instrumented
		end
	end
	if mask ~= 0 then
		-- The IP header nearest to this L4 header is the last one.
		local dscp, at6 = last(fx_ip6_dscp)
		local d4, at4 = last(fx_ip_dscp)
		if d4 ~= nil and at4 > at6 then
			dscp = d4
		end
		if dscp ~= nil and band(dscp, mask) == band(sig_cfg.dscp, mask) then
			return "dscp"
		end
	end
	return nil
end

local function heur_tcp(tvb, pinfo, tree)
	local sig = int_signal(6)
	if sig ~= "dscp" then
		return false
	end
	dissect_int(tvb, pinfo, tree, sig)
	return true
end

local function heur_udp(tvb, pinfo, tree)
	local dport = last(fx_udp_dport)
	if dport ~= nil and dport ~= 0 and dport == p_int.prefs.report_port then
		return false
	end
	local sig = int_signal(17)
	if sig == nil then
		return false
	end
	dissect_int(tvb, pinfo, tree, sig)
	return true
end

-- Registered on udp.port for hopmark_int.udp_port.
function p_int.dissector(tvb, pinfo, tree)
	return dissect_int(tvb, pinfo, tree, "udp")
end

p_int:register_heuristic("tcp", heur_tcp)
p_int:register_heuristic("udp", heur_udp)

-- -------------------------------------------------------- Telemetry Report

local inner_dissectors = {
	[3] = "eth_withoutfcs", [4] = "ip", [5] = "ipv6",
}
local tlv_inner = { [1] = "eth_withoutfcs", [2] = "ip", [3] = "ipv6" }

local function call_inner(name, tvb, off, len, pinfo, tree)
	if len <= 0 then
		return
	end
	local d = name and Dissector.get(name) or data_dissector
	local sub = tvb(off, len):tvb()
	local saved = report_ctx
	report_ctx = { tree = tree, frame = pinfo.number }
	-- A malformed inner packet throws out of its dissector: note it here
	-- and restore report_ctx whatever happened.
	local ok, err = pcall(function() d:call(sub, pinfo, tree) end)
	report_ctx = saved
	if not ok then
		tree:add_proto_expert_info(R.inner, string.format(
			"Inner packet malformed (%s)", tostring(err):gsub("^.*: ", "")))
	end
end

-- TLVs of InType 1 (Report §3.3.2) in tvb(off, len).
local function dissect_tlvs(tvb, pinfo, tree, off, len)
	local lim = off + len
	while off < lim do
		if off + 4 > lim then
			local ti = tree:add(G["tlv"], tvb(off, lim - off))
			ti:add_proto_expert_info(R.tlv, "TLV header truncated")
			return
		end
		local t = rshift(tvb(off, 1):uint(), 4)
		local l = tvb(off + 1, 1):uint() * 4
		local tl = math.min(4 + l, lim - off)
		local ti = tree:add(G["tlv"], tvb(off, tl))
		ti:add(G["tlv.type"], tvb(off, 1))
		ti:add(G["tlv.len"], tvb(off + 1, 1))
		ti:add(G["tlv.template"], tvb(off + 2, 2))
		if 4 + l > lim - off then
			ti:add_proto_expert_info(R.tlv, string.format(
				"TLVLength %d words runs past the report's %d octets", l / 4, lim - off - 4))
		end
		if t == 0 then
			if tl > 4 then
				ti:add(G["tlv.data"], tvb(off + 4, tl - 4))
			end
		else
			call_inner(tlv_inner[t], tvb, off + 4, tl - 4, pinfo, ti)
		end
		off = off + tl
	end
end

-- One Individual Report at tvb(off); lim is the end of the datagram.
-- Return: the offset after it, and whether another may follow.
local function dissect_report(tvb, pinfo, tree, off, lim, idx)
	if off + 4 > lim then
		local ti = tree:add(G["rep"], tvb(off, lim - off))
		ti:add_proto_expert_info(R.hdr_trunc, string.format(
			"Individual Report Header truncated: %d of 4 octets", lim - off))
		return lim, false
	end
	local rep_type = rshift(tvb(off, 1):uint(), 4)
	local in_type = band(tvb(off, 1):uint(), 0x0f)
	local rlen = tvb(off + 1, 1):uint()
	local md_len = tvb(off + 2, 1):uint()
	local flags = tvb(off + 3, 1):uint()
	local body = rlen * 4
	local more = true
	if rlen == 0xff then
		body = lim - off - 4	-- >= 255 words, to the end; none follows
		more = false
	end
	local short = false
	if off + 4 + body > lim then
		body = lim - off - 4
		short = true
		more = false
	end
	local rt = tree:add(G["rep"], tvb(off, 4 + body))
	rt:set_text(string.format("Individual Report %d: %s, InType %s", idx,
		REP_TYPE[rep_type] or tostring(rep_type), IN_TYPE[in_type] or tostring(in_type)))
	rt:add(G["rep.rep_type"], tvb(off, 1))
	rt:add(G["rep.in_type"], tvb(off, 1))
	local li = rt:add(G["rep.len"], tvb(off + 1, 1))
	if rlen == 0xff then
		li:append_text(" (0xff: at least 255 words, to the end of the datagram)")
	end
	rt:add(G["rep.md_len"], tvb(off + 2, 1))
	rt:add(G["rep.d"], tvb(off + 3, 1))
	rt:add(G["rep.q"], tvb(off + 3, 1))
	rt:add(G["rep.f"], tvb(off + 3, 1))
	rt:add(G["rep.i"], tvb(off + 3, 1))
	local ri = rt:add(G["rep.rsvd"], tvb(off + 3, 1))
	if band(flags, 0x0f) ~= 0 then
		ri:add_proto_expert_info(R.rsvd, "Reserved bits 28-31 of the report header are not 0")
	end
	if short then
		li:add_proto_expert_info(R.len_beyond, string.format(
			"Report Length %d words runs past the %d octets left in the datagram",
			rlen, lim - off - 4))
	end

	local p = off + 4
	local bend = p + body
	if rep_type == 1 then
		if p + 8 + md_len * 4 > bend then
			rt:add_proto_expert_info(R.main, string.format(
				"RepType 1 report of %d octets is shorter than its 8-octet main contents and MD Length %d words",
				bend - p, md_len))
		end
		if p + 8 > bend then
			if bend > p then
				rt:add(G["rep.contents"], tvb(p, bend - p))
			end
			return bend, more
		end
		local bm = tvb(p, 2):uint()
		rt:add(G["rep.rep_md_bits"], tvb(p, 2))
		rt:add(G["rep.ds_id"], tvb(p + 2, 2))
		rt:add(G["rep.ds_md_bits"], tvb(p + 4, 2))
		rt:add(G["rep.ds_md_status"], tvb(p + 6, 2))
		p = p + 8
		if bit_set(bm, 0) then
			rt:add_proto_expert_info(R.bit0,
				"RepMdBits bit 0 is reserved (the node ID is in the group header): read as a node ID")
		end
		local mdl = math.min(md_len * 4, bend - p)
		if mdl > 0 then
			local mt = rt:add(G["md"], tvb(p, mdl))
			local mlim = p + mdl
			local o = add_baseline(tvb, mt, p, mlim, bm, RMD, G["md.reserved"])
			if o == nil then
				mt:add_proto_expert_info(R.md_len, string.format(
					"MD Length %d words is less than RepMdBits 0x%04x asks for", md_len, bm))
				o = mlim
			elseif bit_set(bm, 15) then
				if o + 4 <= mlim then
					mt:add(G["md.drop_queue_id"], tvb(o, 1))
					mt:add(G["md.drop_reason"], tvb(o + 1, 1))
					mt:add(G["md.drop_pad"], tvb(o + 2, 2))
					o = o + 4
				else
					mt:add_proto_expert_info(R.md_len, string.format(
						"MD Length %d words is less than RepMdBits 0x%04x asks for", md_len, bm))
					o = mlim
				end
			end
			if o < mlim then
				mt:add(G["md.ds_md"], tvb(o, mlim - o))
			end
		elseif bitmap_words(bm) > 0 then
			rt:add_proto_expert_info(R.md_len, string.format(
				"MD Length 0 but RepMdBits 0x%04x asks for metadata", bm))
		end
		p = p + mdl
	elseif rep_type == 0 and md_len ~= 0 then
		-- Inner Only has no metadata (§3.3); IOAM and reserved types:
		-- the contents are taken as inner contents of InType.
		rt:add_proto_expert_info(R.md_len, string.format(
			"MD Length %d words in an Inner Only report", md_len))
	end

	local ilen = bend - p
	rt:add(G["rep.inner_len"], ilen):set_generated()
	if ilen > 0 then
		if in_type == 1 then
			dissect_tlvs(tvb, pinfo, rt, p, ilen)
		elseif in_type == 0 or in_type == 2 then
			rt:add(G["rep.inner"], tvb(p, ilen))
		else
			call_inner(inner_dissectors[in_type], tvb, p, ilen, pinfo, rt)
		end
	end
	return bend, more
end

function p_rpt.dissector(tvb, pinfo, tree)
	local avail = tvb:len()
	pinfo.cols.protocol:set("INT Report")
	tree = report_tree(pinfo) or tree
	local t = tree:add(p_rpt, tvb(0, avail))
	if avail < 8 then
		if avail > 0 then
			t:add(G["group"], tvb(0, avail))
		end
		t:add_proto_expert_info(R.group_trunc, string.format(
			"Telemetry Group Header truncated: %d of 8 octets", avail))
		pinfo.cols.info:set("Telemetry Report, group header truncated")
		return avail
	end
	local gt = t:add(G["group"], tvb(0, 8))
	local w0 = tvb(0, 4):uint()
	gt:add(G["group.ver"], tvb(0, 4))
	gt:add(G["group.hw_id"], tvb(0, 4))
	gt:add(G["group.seq"], tvb(0, 4))
	gt:add(G["group.node_id"], tvb(4, 4))
	if rshift(w0, 28) ~= 2 then
		gt:add_proto_expert_info(R.bad_ver, string.format("Telemetry Report Ver %d, not 2", rshift(w0, 28)))
	end
	-- The inner packets set the columns; the report's own info comes last.
	local off, idx, more = 8, 0, true
	while more and off < avail do
		off, more = dissect_report(tvb, pinfo, t, off, avail, idx)
		idx = idx + 1
	end
	pinfo.cols.protocol:set("INT Report")
	pinfo.cols.info:set(string.format("Telemetry Report node %d hw_id %d seq %d, %d report%s",
		tvb(4, 4):uint(), band(rshift(w0, 22), 0x3f), band(w0, 0x3fffff), idx, idx == 1 and "" or "s"))
	return avail
end

-- -------------------------------------------------- port registration

-- A 6-bit DSCP preference: nil (and a failure report) unless 0..0x3f.
local function dscp_pref(name, text)
	local v = tonumber(text)
	if v == nil or v < 0 or v > 0x3f or v ~= math.floor(v) then
		report_failure(string.format(
			"hopmark_int.%s: \"%s\" is not a 6-bit DSCP (0..63 or 0x00..0x3f); DSCP signalling is off",
			name, text))
		return nil
	end
	return v
end

local function register_ports()
	local d = dscp_pref("dscp", p_int.prefs.dscp)
	local m = dscp_pref("dscp_mask", p_int.prefs.dscp_mask)
	if d == nil or m == nil then
		d, m = 0, 0
	end
	sig_cfg.dscp, sig_cfg.dscp_mask = d, m
	sig_cfg.source_only = p_int.prefs.source_only
	if registered.udp_port ~= 0 then
		udp_port_table:remove(registered.udp_port, p_int)
	end
	if registered.report_port ~= 0 then
		udp_port_table:remove(registered.report_port, p_rpt)
	end
	registered.udp_port = band(p_int.prefs.udp_port, 0xffff)
	registered.report_port = band(p_int.prefs.report_port, 0xffff)
	if registered.udp_port ~= 0 then
		udp_port_table:add(registered.udp_port, p_int)
	end
	if registered.report_port ~= 0 and registered.report_port ~= registered.udp_port then
		udp_port_table:add(registered.report_port, p_rpt)
	end
end

function p_int.prefs_changed()
	register_ports()
end

register_ports()
