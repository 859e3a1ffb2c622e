#!/bin/bash
# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#
# broker_bench.sh - the numbers Documentation/collector-scaleout.rst chose
# hopmark-collector's broker by: for NATS JetStream (Debian's nats-server)
# and RabbitMQ (Debian's rabbitmq-server with its consistent-hash exchange),
# how long a private server in a temporary directory takes from exec to
# accepting connections, then broker-bench's publish and consume rates of N
# postcards over P partitions. Each server listens on 127.0.0.1 only and is
# stopped by its PID. RabbitMQ is skipped, with the reason, when
# rabbitmq-server is not installed or broker-bench was built without
# librabbitmq-dev.
#
#   bench/broker_bench.sh [N [P]]     (make bench-broker; root for RabbitMQ,
#                                      which runs as user rabbitmq)
set -u
N=${1:-200000}
P=${2:-3}
TOP=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BROKER_BENCH:-$TOP/build/bench/broker-bench}
NATS_PORT=${NATS_PORT:-14222}
AMQP_PORT=${AMQP_PORT:-15672}
EPMD_PORT=${EPMD_PORT:-14369}

[ -x "$BENCH" ] || { echo "broker_bench: not built: $BENCH (make bench)" >&2; exit 1; }
TMP=$(mktemp -d /tmp/hm-broker-bench.XXXXXX)
chmod 755 "$TMP"
PIDS=
cleanup()
{
	local p
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $PIDS; do
		while kill -0 "$p" 2>/dev/null; do sleep 0.1; done
	done
	rm -rf "$TMP"
}
trap cleanup EXIT

ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# wait_port PORT SECONDS - until something accepts on 127.0.0.1:PORT
wait_port()
{
	local i
	for i in $(seq $(( $2 * 20 ))); do
		(exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# NATS JetStream
t0=$(date +%s%N)
nats-server -js -a 127.0.0.1 -p "$NATS_PORT" -sd "$TMP/nats" -l "$TMP/nats.log" &
NATS=$!
PIDS="$NATS"
wait_port "$NATS_PORT" 10 || { echo "nats-server did not start" >&2; exit 1; }
echo "nats start-up $(ms "$t0") ms"
"$BENCH" nats "nats://127.0.0.1:$NATS_PORT" "$N" "$P" || exit 1
kill "$NATS"; wait "$NATS"; PIDS=

# RabbitMQ
if [ ! -x /usr/lib/rabbitmq/bin/rabbitmq-server ]; then
	echo "amqp skipped: rabbitmq-server is not installed"
	exit 0
fi
if "$BENCH" amqp 127.0.0.1:1 1 2>&1 | grep -q "not built"; then
	echo "amqp skipped: broker-bench built without librabbitmq-dev"
	exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "amqp skipped: needs root (the server runs as user rabbitmq)"; exit 0; }
R=$TMP/rabbit
mkdir -p "$R"
echo '[rabbitmq_consistent_hash_exchange].' >"$R/enabled_plugins"
echo "listeners.tcp.default = 127.0.0.1:$AMQP_PORT" >"$R/rabbitmq.conf"
chown -R rabbitmq "$R"
# epmd (Erlang's port mapper) started here on its own port, so that it is
# ours to stop by PID rather than a daemon the server would fork.
runuser -u rabbitmq -- /usr/lib/erlang/erts-*/bin/epmd -port "$EPMD_PORT" -address 127.0.0.1 &
EPMD=$!
PIDS="$EPMD"
t0=$(date +%s%N)
runuser -u rabbitmq -- env HOME="$R" RABBITMQ_NODENAME=hmbench@localhost \
	RABBITMQ_NODE_IP_ADDRESS=127.0.0.1 RABBITMQ_NODE_PORT="$AMQP_PORT" \
	RABBITMQ_DIST_PORT=$((AMQP_PORT + 10000)) ERL_EPMD_PORT="$EPMD_PORT" \
	RABBITMQ_MNESIA_BASE="$R/mnesia" RABBITMQ_LOG_BASE="$R/log" \
	RABBITMQ_ENABLED_PLUGINS_FILE="$R/enabled_plugins" \
	RABBITMQ_CONFIG_FILE="$R/rabbitmq.conf" RABBITMQ_PID_FILE="$R/pid" \
	/usr/lib/rabbitmq/bin/rabbitmq-server >"$R/out" 2>&1 &
PIDS="$! $EPMD"
wait_port "$AMQP_PORT" 60 || { echo "rabbitmq-server did not start" >&2; tail "$R/out" >&2; exit 1; }
echo "amqp start-up $(ms "$t0") ms"
# the Erlang VM is the server: stop it by the PID it wrote
[ -s "$R/pid" ] && PIDS="$(cat "$R/pid") $PIDS"
"$BENCH" amqp "127.0.0.1:$AMQP_PORT" "$N" "$P"
