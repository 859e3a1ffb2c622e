# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# collector/: hopmark-collector, which receives postcards (IPFIX) and
# Telemetry Reports, stitches per-packet paths and locates drops.

# The PostgreSQL output (collector/out_pg.c, schema collector/schema.sql
# compiled in as HMC_SCHEMA_SQL) and the broker mode (collector/broker.c,
# NATS JetStream): objects of their own with libpq / libnats, never in
# libhopmark.a. hopmark-collector links HMC_SCALE_OBJS with HMC_SCALE_LIBS.
HMC_PG_CFLAGS	:= -I$(CURDIR) -I$(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
HMC_SCALE_OBJS	:= $(BUILD)/obj/collector/out_pg.o
HMC_SCALE_LIBS	:= -lpq

$(BUILD)/collector/hmc_schema_sql.h: collector/schema.sql
	@mkdir -p $(@D)
	{ echo '#define HMC_SCHEMA_SQL \'; \
	  sed -e 's/--.*//' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$$/\\n" \\/' $<; \
	  echo '	""'; } >$@

$(BUILD)/obj/collector/out_pg.o: collector/out_pg.c collector/out_pg.h collector/output.h \
		collector/path.h $(BUILD)/collector/hmc_schema_sql.h $(HM_LIB_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) $(HMC_PG_CFLAGS) -I$(BUILD)/collector -c $< -o $@

# selftests/net/test_collector_pg.sh's feeder
HMC_PG_FEED	:= $(BUILD)/tests/collector/pg-feed
$(HMC_PG_FEED): collector/tests/pg_feed.c $(BUILD)/obj/collector/out_pg.o $(HM_LIB)
	@mkdir -p $(@D)
	$(CC) $(HM_CFLAGS) -I$(CURDIR) $< -o $@ $(BUILD)/obj/collector/out_pg.o $(HM_LIB) -lpq
HM_TEST_DEPS	+= $(HMC_PG_FEED)
