#!/usr/bin/env bash
# Times `reel feed sweep report` and `reel feed sweep merge` on a generated sweep of TRACES x
# SETTINGS cells: the matrix is written by `reel feed sweep` itself (through a shard that owns none
# of its cells, so no session runs), then every cell gets one real session's summary with its
# figures varied; the merge combines the same cells spread over SHARDS folders. Prints wall and CPU
# seconds per step. Numbers, not pass/fail: run it on a quiet machine (or read the CPU seconds).
#
#   scripts/measure-sweep.sh        SETTINGS=1000 TRACES=10 SHARDS=10 REEL=.build/release/reel
set -euo pipefail
cd "$(dirname "$0")/.."
REEL=${REEL:-.build/release/reel}
SETTINGS=${SETTINGS:-1000}
TRACES=${TRACES:-10}
SHARDS=${SHARDS:-10}
for tool in "$REEL" python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "measure-sweep: $tool is missing (make release)" >&2; exit 2; }
done
[ "$SETTINGS" -ge 2 ] || { echo "measure-sweep: SETTINGS must be 2 or more" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
feed=(--serve Samples --feed Samples/video-feed.json)
"$REEL" feed run "${feed[@]}" --pattern browse --seconds 3 --profile wifi --json >"$work/one.json"
"$REEL" feed sweep "${feed[@]}" --pattern browse --seeds "$TRACES" --profile wifi \
  --vary "network.connectTimeoutMs=$(seq -s, 1001 $((1000 + SETTINGS - 1)))" \
  --shard 999999/1000000 --output "$work/sweep" --json >/dev/null
# Every cell done in sweep/, and the same cells spread over shard-<i>/ (cell index mod SHARDS).
python3 - "$work" "$SHARDS" <<'PY'
import json, os, random, shutil, sys
work, shards = sys.argv[1], int(sys.argv[2])
template = json.load(open(os.path.join(work, "one.json")))
matrix = json.load(open(os.path.join(work, "sweep", "sweep.json")))
rng = random.Random(1)
for cell in matrix["cells"]:
    summary = json.loads(json.dumps(template))
    summary["startedWithin50msRatio"] = rng.random()
    for key in ("p50", "p95", "p99", "max"):
        summary["ttffMs"][key] = 20 + 200 * rng.random()
    summary["cdn"]["bytes"] = rng.randrange(1_000_000, 3_000_000)
    summary["prefetch"]["wastedBytes"] = rng.randrange(0, 500_000)
    text = json.dumps(summary, indent=2)
    for folder in ("sweep", "shard-%d" % (cell["index"] % shards)):
        os.makedirs(os.path.join(work, folder, "cells", cell["id"]))
        with open(os.path.join(work, folder, "cells", cell["id"], "summary.json"), "w") as f:
            f.write(text)
for shard in range(shards):
    shutil.copy(os.path.join(work, "sweep", "sweep.json"), os.path.join(work, "shard-%d" % shard, "sweep.json"))
print("%d cells (%d traces x %d settings), %d shards" % (len(matrix["cells"]), len(matrix["traces"]), len(matrix["settings"]), shards))
PY
timed() {
  local label=$1
  shift
  /usr/bin/time -o "$work/time" -f "$label: %e s wall, %U s user, %S s system, %M KB" "$@" >/dev/null
  cat "$work/time"
}
timed "report --json --html" "$REEL" feed sweep report "$work/sweep" --json --html "$work/report.html"
timed "merge of the shards" "$REEL" feed sweep merge "$work"/shard-* --output "$work/merged" --json
timed "merge again (every cell done)" "$REEL" feed sweep merge "$work"/shard-* --output "$work/merged" --json
