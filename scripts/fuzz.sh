#!/usr/bin/env bash
# Fuzzes every Fuzz* target in the repository, one after another, each for
# DURATION (a go test -fuzztime value; default 10m). A crash stops the run
# with the failing input written under the package's testdata/fuzz/, where
# it becomes a seed once committed.
#
#   scripts/fuzz.sh            # every target, 10 minutes each
#   scripts/fuzz.sh 10s        # what .ci/run does
#   scripts/fuzz.sh 30m ./ingest FuzzChunk   # one target (package, name)
#
# FUZZ_PARALLEL sets -parallel (default 1: the machine is shared).
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10m}"
parallel="${FUZZ_PARALLEL:-1}"

targets() {
  if [ $# -ge 2 ]; then
    echo "$1 $2"
    return
  fi
  grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
    pkg="./$(dirname "${file#./}")"
    grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //' | while read -r name; do
      echo "$pkg $name"
    done
  done
}

# fuzz_once runs one target and prints its output. Go before 1.27 can fail
# a target with a bare "context deadline exceeded" as -fuzztime ends, a race
# in its fuzzing coordinator (go.dev/issue/75804) with no input to blame:
# such a run, and only such a run (no input written, no panic, no test
# failure), is tried once more.
fuzz_once() {
  local pkg=$1 name=$2 out status
  for attempt in 1 2; do
    status=0
    out=$(go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$duration" -parallel "$parallel" </dev/null 2>&1) || status=$?
    printf '%s\n' "$out"
    [ "$status" -eq 0 ] && return 0
    if [ "$attempt" -eq 1 ] && grep -q 'context deadline exceeded' <<<"$out" &&
      ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' <<<"$out"; then
      echo "== fuzz $pkg $name: the fuzzing engine's deadline race (go.dev/issue/75804), no failing input; once more"
      continue
    fi
    return "$status"
  done
}

targets "${@:2}" | while read -r pkg name; do
  echo "== fuzz $pkg $name for $duration ($(date -u +%H:%M:%S))"
  fuzz_once "$pkg" "$name"
done
echo "== fuzz done ($(date -u +%H:%M:%S))"
