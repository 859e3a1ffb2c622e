/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * pint_agent.h - hopmarkd's PINT sink (agent/pint_sink.c): a thread that
 * consumes the pint_events ring buffer into lib/pint/pint_sink.c's per-flow
 * inference and keeps $HOPMARK_RUNDIR/pint.json up to date for
 * `hopmark pint show`.
 */
#ifndef __HOPMARKD_PINT_AGENT_H
#define __HOPMARKD_PINT_AGENT_H

/* How often the state file is rewritten, ms. */
#define HM_PINT_STATE_INTERVAL_MS	500

struct pint_topo;

/**
 * hm_pint_agent_start() - start the PINT sink thread
 * @topo:	network for topology-aware path decoding (borrowed until
 *		hm_pint_agent_stop()), NULL for topology-blind
 *
 * The thread waits for the node's PINT maps (pint_cfg configured, pint_events
 * pinned), checking every HM_PINT_STATE_INTERVAL_MS, so hopmarkd may start
 * before PINT is set up; a change of the domain settings restarts the
 * inference. Signals stay blocked in the thread (hopmarkd takes them with
 * its signalfd).
 *
 * Return: 0, or negative errno if the thread could not be created (the
 * agent then runs without PINT, and says so).
 */
int hm_pint_agent_start(const struct pint_topo *topo);

/**
 * hm_pint_agent_stop() - stop the thread, write the state a last time
 */
void hm_pint_agent_stop(void);

#endif /* __HOPMARKD_PINT_AGENT_H */
