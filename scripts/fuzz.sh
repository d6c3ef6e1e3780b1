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

targets "${@:2}" | while read -r pkg name; do
  echo "== fuzz $pkg $name for $duration ($(date -u +%H:%M:%S))"
  go test "$pkg" -run '^$' -fuzz "^${name}\$" -fuzztime "$duration" -parallel "$parallel" </dev/null
done
echo "== fuzz done ($(date -u +%H:%M:%S))"
