// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * out_pg.c - hopmark-collector's PostgreSQL output (--pg CONNINFO): every
 * stitched path becomes a row of packets, one row of hops per node and an
 * update of its flow's row in flows (collector/schema.sql documents every
 * column; Documentation/collector.rst "PostgreSQL").
 *
 * Paths are buffered as COPY text and written in one transaction when
 * HMC_PG_BATCH_PATHS are buffered and at every flush (the collector calls
 * one at least once a second): COPY into two temporary staging tables,
 * then one statement moves them into packets, hops and flows. COPY cannot
 * skip a row that is already there, so the move is an INSERT ... ON
 * CONFLICT DO NOTHING on packets' primary key; its RETURNING rows are the
 * packets really stored, and only their hops and flow counts are written.
 * A path stored twice (the broker's redelivery after a worker died) is
 * therefore stored once and counted as a duplicate.
 *
 * A failed flush (server restarted, connection lost, SQL error) keeps the
 * buffer and is counted; the next flush reconnects first, at most once a
 * second, and writes it. Beyond HMC_PG_MAX_BUFFERED paths the newest are
 * dropped and counted as lost, so a database that stays away cannot eat
 * the collector's memory.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <libpq-fe.h>

#include "collector/out_pg.h"
#include "collector/path.h"
#include "pbt/pbt_maps.h"
#include "hmc_schema_sql.h"	/* HMC_SCHEMA_SQL: collector/schema.sql, generated */

struct hmc_buf {
	char	*p;
	size_t	len;
	size_t	cap;
};

struct hmc_pg {
	char			*conninfo;
	PGconn			*conn;
	int			ready;		/* schema and staging tables made on @conn */
	__u64			last_try_ns;	/* last connection attempt */
	struct hmc_buf		pkts;		/* COPY text of hm_stage_packets */
	struct hmc_buf		hops;		/* COPY text of hm_stage_hops */
	__u32			buffered;	/* paths in @pkts */
	struct hmc_pg_stats	st;
	struct hmc_pg_stats	*final;		/* hmc_pg_stats_at_close() */
};

#define KEY_COLS "family, proto, saddr, daddr, sport, dport"
#define PKT_COLS KEY_COLS ", pkt_id, first_ns"

/*
 * CREATE TABLE IF NOT EXISTS is not safe against itself: two collectors
 * starting at once (broker workers) can both try to create the table. A
 * transaction-scoped advisory lock (key: "hmpg" in ASCII) orders them.
 */
static const char schema_sql[] =
	"BEGIN; SELECT pg_advisory_xact_lock(1752002663);" HMC_SCHEMA_SQL "COMMIT;";

static const char stage_sql[] =
	"CREATE TEMP TABLE IF NOT EXISTS hm_stage_packets (LIKE packets) ON COMMIT DELETE ROWS;"
	"CREATE TEMP TABLE IF NOT EXISTS hm_stage_hops (LIKE hops) ON COMMIT DELETE ROWS;";

/*
 * The move from the staging tables. ins: the packets stored (a key seen
 * before, or twice in the batch, is skipped); h: their hops (DISTINCT ON,
 * for a path twice in the same batch); agg and lastp: per flow, the
 * counts and the newest path of what was stored; fl: the flows' upsert.
 * Returns the staged, stored and hop counts.
 */
static const char move_sql[] =
	"WITH ins AS (INSERT INTO packets SELECT * FROM hm_stage_packets"
	"  ON CONFLICT DO NOTHING RETURNING *),"
	" h AS (INSERT INTO hops SELECT DISTINCT ON (" PKT_COLS ", hop) s.*"
	"  FROM hm_stage_hops s JOIN ins USING (" PKT_COLS ") RETURNING 1),"
	" agg AS (SELECT " KEY_COLS ", count(*) AS n,"
	"  count(*) FILTER (WHERE drop_kind = 0) AS c,"
	"  count(*) FILTER (WHERE drop_kind = 1) AS d1,"
	"  count(*) FILTER (WHERE drop_kind = 2) AS d2,"
	"  count(*) FILTER (WHERE drop_kind = 3) AS d3,"
	"  min(first_ns) AS f, max(first_ns) AS l FROM ins GROUP BY " KEY_COLS "),"
	" lastp AS (SELECT DISTINCT ON (" KEY_COLS ") " KEY_COLS ", path FROM ins"
	"  ORDER BY " KEY_COLS ", first_ns DESC),"
	" fl AS (INSERT INTO flows SELECT agg.*, lastp.path FROM agg JOIN lastp USING (" KEY_COLS ")"
	"  ON CONFLICT (" KEY_COLS ") DO UPDATE SET"
	"  packets = flows.packets + EXCLUDED.packets,"
	"  complete = flows.complete + EXCLUDED.complete,"
	"  drops_in_node = flows.drops_in_node + EXCLUDED.drops_in_node,"
	"  drops_on_link = flows.drops_on_link + EXCLUDED.drops_on_link,"
	"  drops_unknown = flows.drops_unknown + EXCLUDED.drops_unknown,"
	"  first_ns = least(flows.first_ns, EXCLUDED.first_ns),"
	"  last_path = CASE WHEN EXCLUDED.last_ns >= flows.last_ns"
	"   THEN EXCLUDED.last_path ELSE flows.last_path END,"
	"  last_ns = greatest(flows.last_ns, EXCLUDED.last_ns) RETURNING 1)"
	" SELECT (SELECT count(*) FROM hm_stage_packets), (SELECT count(*) FROM ins),"
	"  (SELECT count(*) FROM h), (SELECT count(*) FROM fl)";

static __u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int buf_printf(struct hmc_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int buf_printf(struct hmc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->p ? b->p + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return -EINVAL;
		if ((size_t)n < room) {
			b->len += n;
			return 0;
		}
		{
			size_t cap = b->cap ? b->cap * 2 : 65536;
			char *p;

			while (cap - b->len <= (size_t)n)
				cap *= 2;
			p = realloc(b->p, cap);
			if (!p)
				return -ENOMEM;
			b->p = p;
			b->cap = cap;
		}
	}
}

/* an address of the flow key as PostgreSQL's inet text */
static void addr_text(const struct hm_flow_key *k, const __u8 *a, char *out, size_t n)
{
	if (!inet_ntop(k->family == 4 ? AF_INET : AF_INET6, a, out, n))
		snprintf(out, n, "::");
}

/* "\N" or the value: COPY text's NULL */
static int put_opt(struct hmc_buf *b, int have, __u64 v, const char *sep)
{
	if (!have)
		return buf_printf(b, "\\N%s", sep);
	return buf_printf(b, "%llu%s", (unsigned long long)v, sep);
}

/* one path as a line of hm_stage_packets and a line per hop of hm_stage_hops */
static int path_text(struct hmc_pg *pg, const struct hmc_path *p)
{
	size_t pl = pg->pkts.len, hl = pg->hops.len;
	char sa[INET6_ADDRSTRLEN], da[INET6_ADDRSTRLEN], key[200];
	const struct hmc_hop *prev = NULL;
	unsigned int i, n = p->nr_hops;
	int err = 0;

	if (n > HMC_PATH_MAX_HOPS)
		n = HMC_PATH_MAX_HOPS;
	addr_text(&p->key, p->key.saddr, sa, sizeof(sa));
	addr_text(&p->key, p->key.daddr, da, sizeof(da));
	snprintf(key, sizeof(key), "%u\t%u\t%s\t%s\t%u\t%u\t%u\t%llu",
		 p->key.family, p->key.proto, sa, da, ntohs(p->key.sport), ntohs(p->key.dport),
		 p->pkt_id, (unsigned long long)p->first_ns);
	err |= buf_printf(&pg->pkts, "%s\t%u\t%u\t", key, n, p->drop);
	err |= put_opt(&pg->pkts, p->drop != HMC_DROP_NONE && n, n ? p->hops[n - 1].node_id : 0, "\t");
	err |= buf_printf(&pg->pkts, "%u\t{", p->dups);
	for (i = 0; i < n; i++)
		err |= buf_printf(&pg->pkts, "%s%u", i ? "," : "", p->hops[i].node_id);
	err |= buf_printf(&pg->pkts, "}\n");
	for (i = 0; i < n; i++) {
		const struct hmc_hop *h = &p->hops[i];

		err |= buf_printf(&pg->hops, "%s\t%u\t%u\t%u\t%u\t", key, i, h->node_id, h->ttl, h->points);
		err |= put_opt(&pg->hops, h->in_if, h->in_if, "\t");
		err |= put_opt(&pg->hops, h->out_if, h->out_if, "\t");
		err |= put_opt(&pg->hops, h->in_ns, h->in_ns, "\t");
		err |= put_opt(&pg->hops, h->out_ns, h->out_ns, "\t");
		err |= put_opt(&pg->hops, h->qdepth != 0xffffffffU, h->qdepth, "\t");
		err |= put_opt(&pg->hops, h->in_ns && h->out_ns && h->out_ns >= h->in_ns,
			       h->out_ns - h->in_ns, "\t");
		err |= put_opt(&pg->hops, prev && prev->out_ns && h->in_ns && h->in_ns >= prev->out_ns,
			       prev ? h->in_ns - prev->out_ns : 0, "\n");
		prev = h;
	}
	if (err) {
		/* never leave half a row: the COPY would refuse the whole batch */
		pg->pkts.len = pl;
		pg->hops.len = hl;
		return -ENOMEM;
	}
	return 0;
}

static int exec_ok(PGconn *c, const char *sql, ExecStatusType want)
{
	PGresult *r = PQexec(c, sql);
	int ok = PQresultStatus(r) == want;

	if (!ok)
		fprintf(stderr, "hopmark-collector: pg: %s", PQerrorMessage(c));
	PQclear(r);
	return ok;
}

/* connect (again) when needed; at most one attempt a second */
static int pg_connect(struct hmc_pg *pg)
{
	__u64 now = mono_ns();
	int again = pg->conn != NULL;

	if (pg->conn && PQstatus(pg->conn) == CONNECTION_OK && pg->ready)
		return 0;
	if (pg->last_try_ns && now - pg->last_try_ns < 1000000000ULL)
		return -EAGAIN;
	pg->last_try_ns = now;
	if (pg->conn)
		PQfinish(pg->conn);
	pg->ready = 0;
	pg->conn = PQconnectdb(pg->conninfo);
	if (PQstatus(pg->conn) != CONNECTION_OK) {
		fprintf(stderr, "hopmark-collector: pg: cannot connect: %s", PQerrorMessage(pg->conn));
		return -ECONNREFUSED;
	}
	/* quiet the schema's "already exists, skipping" notices */
	if (!exec_ok(pg->conn, "SET client_min_messages = warning", PGRES_COMMAND_OK) ||
	    !exec_ok(pg->conn, schema_sql, PGRES_COMMAND_OK) ||
	    !exec_ok(pg->conn, stage_sql, PGRES_COMMAND_OK))
		return -EIO;
	pg->ready = 1;
	if (again)
		pg->st.reconnects++;
	return 0;
}

static int copy_in(PGconn *c, const char *table, const struct hmc_buf *b)
{
	char sql[80];
	PGresult *r;
	int ok;

	snprintf(sql, sizeof(sql), "COPY %s FROM STDIN", table);
	if (!exec_ok(c, sql, PGRES_COPY_IN))
		return -EIO;
	ok = (!b->len || PQputCopyData(c, b->p, (int)b->len) == 1);
	if (PQputCopyEnd(c, ok ? NULL : "hopmark-collector: send failed") != 1)
		ok = 0;
	while ((r = PQgetResult(c))) {
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			fprintf(stderr, "hopmark-collector: pg: COPY %s: %s", table, PQerrorMessage(c));
			ok = 0;
		}
		PQclear(r);
	}
	return ok ? 0 : -EIO;
}

static int pg_flush(void *ctx)
{
	struct hmc_pg *pg = ctx;
	PGresult *r;
	int err;

	if (!pg->buffered)
		return 0;
	err = pg_connect(pg);
	if (err) {
		if (err != -EAGAIN)
			pg->st.failures++;
		return err;
	}
	if (!exec_ok(pg->conn, "BEGIN", PGRES_COMMAND_OK) ||
	    copy_in(pg->conn, "hm_stage_packets", &pg->pkts) ||
	    copy_in(pg->conn, "hm_stage_hops", &pg->hops))
		goto fail;
	r = PQexec(pg->conn, move_sql);
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		fprintf(stderr, "hopmark-collector: pg: %s", PQerrorMessage(pg->conn));
		PQclear(r);
		goto fail;
	}
	{
		__u64 staged = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
		__u64 stored = strtoull(PQgetvalue(r, 0, 1), NULL, 10);
		__u64 hops = strtoull(PQgetvalue(r, 0, 2), NULL, 10);

		PQclear(r);
		if (!exec_ok(pg->conn, "COMMIT", PGRES_COMMAND_OK))
			goto fail;
		pg->st.packets += stored;
		pg->st.hops += hops;
		pg->st.duplicates += staged - stored;
	}
	pg->st.flushes++;
	pg->pkts.len = 0;
	pg->hops.len = 0;
	pg->buffered = 0;
	return 0;
fail:
	pg->st.failures++;
	if (PQstatus(pg->conn) == CONNECTION_OK)
		exec_ok(pg->conn, "ROLLBACK", PGRES_COMMAND_OK);
	else
		pg->ready = 0;	/* reconnect at the next flush */
	return -EIO;
}

static int pg_path(void *ctx, const struct hmc_path *p)
{
	struct hmc_pg *pg = ctx;
	int err;

	pg->st.paths++;
	if (pg->buffered >= HMC_PG_MAX_BUFFERED) {
		pg->st.lost++;
		return -ENOBUFS;
	}
	err = path_text(pg, p);
	if (err) {
		pg->st.lost++;
		return err;
	}
	pg->buffered++;
	if (pg->buffered % HMC_PG_BATCH_PATHS == 0)
		pg_flush(pg);	/* a failure is counted; the paths stay buffered */
	return 0;
}

static void pg_close(void *ctx)
{
	struct hmc_pg *pg = ctx;

	if (!pg)
		return;
	pg->last_try_ns = 0;
	pg_flush(pg);
	if (pg->buffered)
		pg->st.lost += pg->buffered;
	if (pg->final)
		*pg->final = pg->st;
	fprintf(stderr, "hopmark-collector: pg: paths %llu packets %llu hops %llu duplicates %llu "
		"flushes %llu failures %llu reconnects %llu lost %llu\n",
		(unsigned long long)pg->st.paths, (unsigned long long)pg->st.packets,
		(unsigned long long)pg->st.hops, (unsigned long long)pg->st.duplicates,
		(unsigned long long)pg->st.flushes, (unsigned long long)pg->st.failures,
		(unsigned long long)pg->st.reconnects, (unsigned long long)pg->st.lost);
	if (pg->conn)
		PQfinish(pg->conn);
	free(pg->pkts.p);
	free(pg->hops.p);
	free(pg->conninfo);
	free(pg);
}

static int pg_open(void **ctx, const char *arg)
{
	struct hmc_pg *pg = calloc(1, sizeof(*pg));
	int err;

	if (!pg)
		return -ENOMEM;
	pg->conninfo = strdup(arg ? arg : "");
	if (!pg->conninfo) {
		free(pg);
		return -ENOMEM;
	}
	/* the first connection must work: a wrong --pg is an error at start */
	err = pg_connect(pg);
	if (err) {
		pg_close(pg);
		return err;
	}
	*ctx = pg;
	return 0;
}

const struct hmc_pg_stats *hmc_pg_stats(const void *ctx)
{
	return &((const struct hmc_pg *)ctx)->st;
}

void hmc_pg_stats_at_close(void *ctx, struct hmc_pg_stats *final)
{
	((struct hmc_pg *)ctx)->final = final;
}

const struct hmc_output_ops hmc_out_pg = {
	.name	= "pg",
	.open	= pg_open,
	.path	= pg_path,
	.flush	= pg_flush,
	.close	= pg_close,
};
