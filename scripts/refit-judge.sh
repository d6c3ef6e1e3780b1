#!/bin/sh
# Refits what belongs to the built-in NLI judge after it changes (a
# retrained nli/model/aligner.json.gz): the verdict thresholds
# (scoring/thresholds.json, fitted on the demo-claims benchmark) and, unless
# THRESHOLDS_ONLY=1, the 0-100 score's calibration (scoring/calibration.json,
# about two minutes of CPU; needs the labeled data in ../shared/data). Then
# it prints the benchmark with the refitted thresholds; TestDemoClaimsBenchmark
# (cmd/verity/demo_test.go) holds its floors: raise them to the new figures,
# or lower them only with a reason.
#
#   scripts/refit-judge.sh
#   THRESHOLDS_ONLY=1 scripts/refit-judge.sh
set -eu
cd "$(dirname "$0")/.."
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
go build -o "$data/verity" ./cmd/verity
"$data/verity" eval --mode verdicts --fit --data "$data/demo" --write-thresholds scoring/thresholds.json >/dev/null
# Rebuilt: the thresholds and the calibration are embedded in the binary,
# and the calibration is fitted on features (agree_dom) that the new
# thresholds shape.
go build -o "$data/verity" ./cmd/verity
if [ "${THRESHOLDS_ONLY:-0}" != 1 ]; then
  "$data/verity" train calibration --out scoring/calibration.json
  go build -o "$data/verity" ./cmd/verity
fi
"$data/verity" eval --mode verdicts --data "$data/demo2"
