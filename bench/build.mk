# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# Benchmarks and evaluators (not part of `make check`; short smoke runs
# are, see HM_TESTS below).
#
#   make bench                       build everything here, then run the
#                                    benches of bench/run.d/ (bench/run.sh)
#   make bpf-cost                    build build/bench/bpf-cost
#   make pint-decode-speed           the decoder speed table of Documentation/pint.rst
#   make bench-fwd                   the forwarding bench (root; bench/fwd_bench.sh)
#   make pint-eval-tables            the tables of Documentation/pint.rst
#   make pint-hpcc-tables            the HPCC table of Documentation/pint.rst

.PHONY: bench pint-eval-tables pint-hpcc-tables pint-decode-speed
bench: $(BUILD)/bench/pint-eval $(BUILD)/bench/pint-hpcc $(BUILD)/bench/pint-decode-bench

$(BUILD)/bench:
	mkdir -p $@

# PPM and AMS2, the IP traceback schemes pint-eval compares PINT with.
HM_TRACEBACK_SRCS	:= bench/traceback_ppm.c bench/traceback_ams2.c

$(BUILD)/bench/pint-eval: bench/pint_eval.c $(HM_TRACEBACK_SRCS) bench/traceback.h bench/bench_rand.h $(HM_LIB) \
			  $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) -pthread $< $(HM_TRACEBACK_SRCS) -o $@ $(HM_LIB) -lm

# HPCC fed by INT or by PINT's 8-bit utilisation (bench/pint_hpcc.c); the
# real sink (pint_sink.c) needs json-c.
$(BUILD)/bench/pint-hpcc: bench/pint_hpcc.c $(HM_LIB) $(HM_LIB_HDRS) bench/bench_rand.h | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB) -ljson-c -lm

pint-hpcc-tables: $(BUILD)/bench/pint-hpcc
	$(BUILD)/bench/pint-hpcc -L 10 -S int,pint,pint16,pintT,pint16T
	$(BUILD)/bench/pint-hpcc
	$(BUILD)/bench/pint-hpcc -T dumbbell -w websearch -S int,pint,pintT,pint16T
	$(BUILD)/bench/pint-hpcc -T fattree -w websearch -l 50 -s 2
	$(BUILD)/bench/pint-hpcc -T fattree -w websearch -l 50 -s 3

# The sink's path decoder, ns per packet (bench/pint_decode_bench.c).
$(BUILD)/bench/pint-decode-bench: bench/pint_decode_bench.c $(HM_LIB) $(HM_LIB_HDRS) bench/bench_rand.h | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) $< -o $@ $(HM_LIB)

# The Topology Zoo graphs the unit tests use (lib/tests/data/README.md).
HM_TOPOLOGIES	:= $(CURDIR)/lib/tests/data/topologies

pint-eval-tables: $(BUILD)/bench/pint-eval
	for k in 5 25 36 59; do \
		$(BUILD)/bench/pint-eval -k $$k -t 1000 -S ladder5,hybrid,multilayer,hybrid:tau=0.5,p=0.2; \
	done
	$(BUILD)/bench/pint-eval -k 25 -t 1000
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/Kdl.gml -t 1000
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/UsCarrier.gml -t 1000
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/Kdl.gml -t 1000 -S hybrid -b 1,4,16 -F 1,4,16
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/UsCarrier.gml -t 1000 -S hybrid -b 1,4,16 -F 1,4,16
	$(BUILD)/bench/pint-eval -k 5 -t 1000 -S hybrid -b 1,4,16 -F 1,4,16
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/Kdl.gml -t 1000 -S hybrid -b 16 -p 1/k
	$(BUILD)/bench/pint-eval -g $(HM_TOPOLOGIES)/Kdl.gml -t 1000 -S hybrid -b 16 -A 7

pint-decode-speed: $(BUILD)/bench/pint-decode-bench
	$(BUILD)/bench/pint-decode-bench -g $(HM_TOPOLOGIES)/Kdl.gml

# Documentation/pint.rst's decoder speed tables are rerun by the doc-table
# test (their packet counts; the timings are lines starting with "(").
HM_TEST_DEPS	+= $(BUILD)/bench/pint-decode-bench

# Smoke run: a few trials of every scheme, PPM and AMS2 on US Carrier; the
# evaluator exits non-zero if any decoded path differs from the true one.
HM_TESTS	+= $(CURDIR)/bench/test_pint_eval.sh
# PPM and AMS2 reconstruct the true path, and AMS2 costs what its rule implies.
HM_TESTS	+= $(CURDIR)/bench/test_traceback.sh
HM_TEST_DEPS	+= $(BUILD)/bench/pint-eval
# Smoke run of pint-hpcc: HPCC converges near eta with every feedback, and
# PINT's slowdowns stay within a stated factor of INT's on a short run.
HM_TESTS	+= $(CURDIR)/bench/test_pint_hpcc.sh
HM_TEST_DEPS	+= $(BUILD)/bench/pint-hpcc
include bench/latency.mk
include bench/concurrency.mk

# The agent's record path (bench/agent_bench.c, issue 11): records per
# second per core from a kernel ring buffer into JSON lines and onto the
# monitor socket, and the loss at twice that rate. The producer is
# bench/agent_bench.bpf.c (bpf/'s flags); the consumer is hopmarkd's own
# output and monitor socket code.
HM_AGENT_BENCH		:= $(BUILD)/bench/agent-bench
HM_AGENT_BENCH_OBJS	:= $(BUILD)/obj/agent/output.o $(BUILD)/obj/agent/monitor_sock.o

$(BUILD)/bench/agent_bench.bpf.o: bench/agent_bench.bpf.c $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/bench/agent_bench.skel.h: $(BUILD)/bench/agent_bench.bpf.o
	$(BPFTOOL) gen skeleton $< name agent_bench > $@.tmp
	mv $@.tmp $@

$(HM_AGENT_BENCH): bench/agent_bench.c $(BUILD)/bench/agent_bench.skel.h $(HM_AGENT_BENCH_OBJS) \
		   agent/hopmarkd.h $(HM_LIB) $(HM_LIB_HDRS)
	$(CC) $(HM_CFLAGS) -pthread -Iagent -I$(BUILD)/bench $< $(HM_AGENT_BENCH_OBJS) -o $@ \
		$(HM_LIB) $(HM_LDLIBS)

.PHONY: agent-bench
agent-bench: $(HM_AGENT_BENCH)
bench: $(HM_AGENT_BENCH)
# Smoke run (seconds): every path and loss run with a few thousand records.
HM_TESTS	+= $(CURDIR)/bench/test_agent_bench.sh
HM_TEST_DEPS	+= $(HM_AGENT_BENCH)
# Per-program BPF cost (bench/bpf_cost.c, issue 11): every hopmark program
# under BPF_PROG_TEST_RUN behind a frame-restoring wrapper, against a no-op
# behind the same wrapper (bench/bpf_cost.bpf.c, built with bpf/'s flags).
# Links the selftests' frame builders and map setters (selftests/bpf/).
HM_COST_BIN	:= $(BUILD)/bench/bpf-cost
HM_COST_SELFTEST_OBJS := $(BUILD)/obj/selftests/bpf/maps.o $(BUILD)/obj/selftests/bpf/pkt_build.o \
			 $(BUILD)/obj/selftests/bpf/libbpf_log.o

$(BUILD)/bench/bpf_cost.bpf.o: bench/bpf_cost.bpf.c bench/bpf_cost.h | $(BUILD)/bench
	$(CLANG) $(BPF_CFLAGS) -Ibench -c $< -o $@

$(BUILD)/bench/bpf_cost.skel.h: $(BUILD)/bench/bpf_cost.bpf.o
	$(BPFTOOL) gen skeleton $< name bpf_cost > $@.tmp
	mv $@.tmp $@

$(HM_COST_BIN): bench/bpf_cost.c bench/bpf_cost.h $(BUILD)/bench/bpf_cost.skel.h \
		$(HM_COST_SELFTEST_OBJS) $(HM_LIB) $(HM_LIB_HDRS) $(HM_BPF_OBJS)
	$(CC) $(HM_CFLAGS) -Iselftests/bpf -Ibench -DHM_COST_OBJ_DIR='"$(BUILD)/bpf"' \
		$< $(HM_COST_SELFTEST_OBJS) -o $@ $(HM_LIB) $(HM_LDLIBS)

.PHONY: bpf-cost
bpf-cost: $(HM_COST_BIN)

# `make bench` runs the benches once everything above is built; each bench
# is an executable of bench/run.d/ (the contract: bench/run.sh).
bench: $(HM_COST_BIN)
	HM_BUILD=$(BUILD) bench/run.sh

# Smoke run: bench/run.sh -q (every bench, a few iterations), then bpf-cost's
# table and JSON hold every row with numbers that can be true. Needs root.
HM_TESTS	+= $(CURDIR)/bench/test_bench_run.py
HM_TEST_DEPS	+= $(HM_COST_BIN)

# Forwarding benchmark (bench/fwd_bench.sh): generator -> router -> sink on
# veth pairs in network namespaces, modes alternated in one run. Root only;
# `make bench-fwd` runs it with the defaults.
HM_FWD_OBJS	:= $(BUILD)/bench/fwd-gen $(BUILD)/bench/fwd_drop.bpf.o \
		   $(BUILD)/bench/fwd_xmit.bpf.o $(BUILD)/bench/fwd_noop.bpf.o
bench: $(HM_FWD_OBJS)

$(BUILD)/bench/fwd-gen: bench/fwd_gen.c bench/fwd_xmit.h $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) -O2 $< -o $@ -lbpf -lelf -lz

$(BUILD)/bench/%.bpf.o: bench/%.bpf.c bench/fwd_xmit.h | $(BUILD)/bench
	$(CLANG) $(BPF_CFLAGS) -c $< -o $@

.PHONY: bench-fwd
bench-fwd: all $(HM_FWD_OBJS)
	bash bench/fwd_bench.sh
# Smoke run of the forwarding bench (root): every mode forwards, the
# router's trace slot is filled where transit runs.
HM_TESTS	+= $(CURDIR)/bench/test_fwd_bench.sh
HM_TEST_DEPS	+= $(HM_FWD_OBJS)

# PBT-M packet ID collisions within a window (Documentation/pbt.rst, "Packet ID").
$(BUILD)/bench/pbt-id-eval: bench/pbt_id_eval.c bench/bench_rand.h $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) $< -o $@
HM_TEST_DEPS	+= $(BUILD)/bench/pbt-id-eval
# The broker comparison of Documentation/collector-scaleout.rst
# (bench/broker_bench.c, run by bench/broker_bench.sh): NATS JetStream, and
# RabbitMQ when librabbitmq-dev is installed (it is not in DEB_PKGS: the
# collector uses NATS).
HM_AMQP_FLAGS	:= $(shell pkg-config --exists librabbitmq 2>/dev/null && echo -DHM_WITH_AMQP)
HM_AMQP_LIBS	:= $(if $(HM_AMQP_FLAGS),$(shell pkg-config --libs librabbitmq))

$(BUILD)/bench/broker-bench: bench/broker_bench.c $(HM_LIB) $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) $(HM_AMQP_FLAGS) $< -o $@ $(HM_LIB) -lnats $(HM_AMQP_LIBS)

bench: $(BUILD)/bench/broker-bench

.PHONY: bench-broker
bench-broker: $(BUILD)/bench/broker-bench
	bash bench/broker_bench.sh

# hopmark-collector's postcard path (bench/pc_bench.c, bench/pbt_coll_bench.sh,
# Documentation/performance-postcards.rst): a generated IPFIX stream of five
# PBT-M nodes, decoded and stitched in process by the collector's own code,
# and replayed over UDP to hopmark-collector and to pmacct's nfacctd in the
# same run.
HM_PC_BENCH	:= $(BUILD)/bench/pc-bench
$(HM_PC_BENCH): bench/pc_bench.c $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB) $(HM_LIB_HDRS) $(COLL_HDRS) | $(BUILD)/bench
	$(CC) $(COLL_CFLAGS) $(HM_IPFIX_CFLAGS) $< -o $@ $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB) $(COLL_LDLIBS)
bench: $(HM_PC_BENCH)
HM_TEST_DEPS	+= $(HM_PC_BENCH)

# IPFIX export of postcards, postcards/s per core (bench/ipfix_bench.c):
# the exporter (lib/ipfix/ipfix_export.c) against pre-built Messages.
.PHONY: ipfix-bench
bench: $(BUILD)/bench/ipfix-bench
# Documentation/ipfix.rst reruns `ipfix-bench -T`: built for make check.
HM_TEST_DEPS	+= $(BUILD)/bench/ipfix-bench
ipfix-bench: $(BUILD)/bench/ipfix-bench
	$(BUILD)/bench/ipfix-bench -n 1000000 -r 3

$(BUILD)/bench/ipfix-bench: bench/ipfix_bench.c $(HM_IPFIX_LIB) $(HM_LIB) \
			    $(HM_LIB_HDRS) | $(BUILD)/bench
	$(CC) $(HM_CFLAGS) $(HM_IPFIX_CFLAGS) bench/ipfix_bench.c -o $@ \
		$(HM_IPFIX_LIB) $(HM_LIB) $(HM_LDLIBS) $(HM_IPFIX_LDLIBS)
