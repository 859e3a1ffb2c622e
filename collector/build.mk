# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# collector/: hopmark-collector, which receives postcards (IPFIX) and
# Telemetry Reports, stitches per-packet paths and locates drops
# (Documentation/collector.rst). One concern per file; every file but the
# main one goes into build/libhopmark-collector.a, which the binary, the
# unit tests (collector/tests/test_*.c, cmocka, TAP) and the fuzz harness
# link. libfixbuf (and GLib) are linked here only: libhopmark.a stays free
# of them. Headers are included as "collector/...".
#
#   make hopmark-collector   build/hopmark-collector
#   make collector-tests     the unit tests (also run by make lib-tests)

COLL_PKGS	:= libfixbuf
COLL_CFLAGS	= $(HM_CFLAGS) -I$(CURDIR) $(shell pkg-config --cflags $(COLL_PKGS))
COLL_LDLIBS	= $(shell pkg-config --libs $(COLL_PKGS)) $(HM_LDLIBS)
COLL_MAIN	:= collector/hopmark_collector.c
COLL_SRCS	:= $(filter-out $(COLL_MAIN),$(wildcard collector/*.c))
COLL_OBJS	:= $(patsubst collector/%.c,$(BUILD)/obj/collector/%.o,$(COLL_SRCS))
COLL_HDRS	:= $(wildcard collector/*.h)
COLL_LIB	:= $(BUILD)/libhopmark-collector.a
COLL_BIN	:= $(BUILD)/hopmark-collector

.PHONY: hopmark-collector collector-tests install-collector
all: $(COLL_BIN)
install: install-collector
hopmark-collector: $(COLL_BIN)

$(BUILD)/obj/collector/%.o: collector/%.c $(COLL_HDRS) $(HM_LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(COLL_CFLAGS) -c -o $@ $<

$(COLL_LIB): $(COLL_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# --metrics (metrics.c) serves through build/libhopmark-prom.a and
# libmicrohttpd; the unit tests do not call it and do not link them.
$(COLL_BIN): $(BUILD)/obj/collector/hopmark_collector.o $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_PROM_LIB) $(HM_LIB)
	$(CC) $(COLL_CFLAGS) -o $@ $< $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_PROM_LIB) $(HM_LIB) \
		$(COLL_LDLIBS) $(HM_PROM_LDLIBS)

install-collector: $(COLL_BIN)
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man8
	install -m 0755 $(COLL_BIN) $(DESTDIR)$(SBINDIR)/hopmark-collector
	install -m 0644 collector/hopmark-collector.8 $(DESTDIR)$(MANDIR)/man8/hopmark-collector.8

COLL_TEST_SRCS	:= $(wildcard collector/tests/test_*.c)
COLL_TESTS	:= $(patsubst collector/tests/%.c,$(BUILD)/tests/collector/%,$(COLL_TEST_SRCS))

$(BUILD)/tests/collector/%: collector/tests/%.c $(wildcard collector/tests/*.h) lib/tests/hm_test.h $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB)
	@mkdir -p $(@D)
	$(CC) $(COLL_CFLAGS) -Ilib/tests $< -o $@ $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB) -lcmocka $(COLL_LDLIBS)

collector-tests: $(COLL_TESTS)
	prove -v $(COLL_TESTS)

# make lib-tests runs them too (before libhopmark's own).
lib-tests: collector-tests

HM_TESTS	+= $(COLL_TESTS)
HM_TEST_DEPS	+= $(COLL_TESTS)

# The PostgreSQL output (collector/out_pg.c, with collector/schema.sql
# compiled in as HMC_SCHEMA_SQL) and the broker mode (collector/broker.c,
# NATS JetStream) are in libhopmark-collector.a too: libpq and libnats are
# linked with the collector only, never with libhopmark.a's users.
COLL_CFLAGS	+= -I$(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql) \
		   -I$(BUILD)/collector
COLL_LDLIBS	+= -lpq -lnats

$(BUILD)/collector/hmc_schema_sql.h: collector/schema.sql
	@mkdir -p $(@D)
	{ echo '#define HMC_SCHEMA_SQL \'; \
	  sed -e 's/--.*//' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$$/\\n" \\/' $<; \
	  echo '	""'; } >$@
$(BUILD)/obj/collector/out_pg.o: $(BUILD)/collector/hmc_schema_sql.h

# selftests/net/test_collector_pg.sh's feeder
HMC_PG_FEED	:= $(BUILD)/tests/collector/pg-feed
$(HMC_PG_FEED): collector/tests/pg_feed.c $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB)
	@mkdir -p $(@D)
	$(CC) $(COLL_CFLAGS) $< -o $@ $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB) $(COLL_LDLIBS)
HM_TEST_DEPS	+= $(HMC_PG_FEED)

# selftests/net/test_collector_broker.sh's front and worker
HMC_BROKER_NODE	:= $(BUILD)/tests/collector/broker-node
$(HMC_BROKER_NODE): collector/tests/broker_node.c $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB)
	@mkdir -p $(@D)
	$(CC) $(COLL_CFLAGS) $< -o $@ $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB) $(COLL_LDLIBS)
HM_TEST_DEPS	+= $(HMC_BROKER_NODE)

# The IPFIX re-export (collector/out_ipfix.c) is hopmarkd's exporter,
# lib/ipfix/ipfix_export.c in $(HM_IPFIX_LIB).
# stitch-bench: the stitcher's memory per packet and flow, and postcards/s
# (Documentation/collector.rst reruns it).
COLL_BENCH	:= $(BUILD)/collector/stitch-bench
$(COLL_BENCH): collector/tests/stitch_bench.c collector/tests/ipfix_craft.h $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB)
	@mkdir -p $(@D)
	$(CC) $(COLL_CFLAGS) $< -o $@ $(COLL_LIB) $(HM_IPFIX_LIB) $(HM_LIB) $(COLL_LDLIBS)
all: $(COLL_BENCH)
HM_TEST_DEPS	+= $(COLL_BENCH)
