#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Smoke run of the forwarding benchmark (TAP, root, under two minutes,
# most of it setting modes up and loading hopmark's objects): bench/fwd_bench.sh -V with
# one repetition of 20000 frames per sample. It checks that in every mode
# (plain, Linux's IOAM, hopmark with the ingress half at XDP and at tc,
# INT, PBT-M marking and postcards) every frame of every packet kind
# reaches the sink, that the router's slot of the trace is filled by
# whoever runs transit (node ID, ingress and, for hopmark, egress
# interface) and left empty in plain forwarding, that in the PBT-M modes
# every frame leaves marked and, with postcards, makes one egress postcard,
# that in the hm-agent mode (hopmark transit, decap at the sink and the
# sink's hopmarkd draining its ring) the agent gets a record per frame, that
# the tcp generator's iperf3 streams (20000 x 1448 octets a sample) arrive,
# reach the router as GSO skbs (frames past the MTU after its GRO) and, in
# tcp6-c00000, carry the router's slot in every segment, and that
# every timed sample moved packets and has its JSON row. The figures of so
# short a run mean nothing and are not checked.
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/hm-fwd-smoke.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
HM_PFX=hmi$$f HM_FWD_DEV=fwt "$here/bench/fwd_bench.sh" -V -r 1 -n 20000 -o "$tmp/fwd.json"
