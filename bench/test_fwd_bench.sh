#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Smoke run of the forwarding benchmark (TAP, root, about half a minute,
# most of it loading hopmark's transit object): bench/fwd_bench.sh -V with
# one repetition of 20000 frames per sample. It checks that in every mode
# (plain, Linux's IOAM, hopmark with the ingress half at XDP and at tc,
# INT, PBT-M marking and postcards) every frame of every packet kind
# reaches the sink, that the router's slot of the trace is filled by
# whoever runs transit (node ID, ingress and, for hopmark, egress
# interface) and left empty in plain forwarding, that in the PBT-M modes
# every frame leaves marked and, with postcards, makes one egress postcard,
# and that
# every timed sample moved packets and has its JSON row. The figures of so
# short a run mean nothing and are not checked.
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/hm-fwd-smoke.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
HM_PFX=hmi$$f HM_FWD_DEV=fwt "$here/bench/fwd_bench.sh" -V -r 1 -n 20000 -o "$tmp/fwd.json"
