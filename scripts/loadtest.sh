#!/bin/sh
# Load test of verify with authentication on: builds verity and the load
# tool, starts `verity serve` on loopback over a fresh data directory with
# the demo corpus and one API key, runs CLIENTS clients for DURATION
# against POST /v1/verify, prints throughput, latency percentiles and the
# server's RSS, and stops the server. Bounded: loopback only, at most 10
# minutes.
#
#   scripts/loadtest.sh                 # 50 clients, 60 s
#   CLIENTS=10 DURATION=20s scripts/loadtest.sh
#
# The per-key rate limit is turned off (VERITY_SERVER_RATE_LIMIT=0) so that
# the run measures capacity, not the limit; RATE_LIMIT=20 measures the
# default limit instead (most answers are then 429).
set -eu
CLIENTS=${CLIENTS:-50}
DURATION=${DURATION:-60s}
PORT=${PORT:-18080}
RATE_LIMIT=${RATE_LIMIT:-0}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
serve_pid=
cleanup() {
	if [ -n "$serve_pid" ]; then kill "$serve_pid" 2>/dev/null || true; wait "$serve_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
go build -o "$tmp/verity" ./cmd/verity
go build -o "$tmp/loadtest" ./cmd/loadtest
key=$("$tmp/verity" keys create --data "$tmp/data" --name loadtest 2>/dev/null)
VERITY_SERVER_RATE_LIMIT=$RATE_LIMIT VERITY_LOG_LEVEL=warn \
	"$tmp/verity" serve --data "$tmp/data" --addr "127.0.0.1:$PORT" >"$tmp/serve.out" 2>"$tmp/serve.err" &
serve_pid=$!
i=0
until grep -q "listening on" "$tmp/serve.out" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 600 ] || ! kill -0 "$serve_pid" 2>/dev/null; then
		echo "serve did not start:" >&2; cat "$tmp/serve.err" >&2; exit 1
	fi
	sleep 0.2
done
"$tmp/loadtest" -url "http://127.0.0.1:$PORT" -key "$key" -clients "$CLIENTS" -duration "$DURATION" -pid "$serve_pid"
