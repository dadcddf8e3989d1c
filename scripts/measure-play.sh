#!/usr/bin/env bash
# Measures `reel play` against the ffmpeg CLI on the bundled samples, served over loopback by
# `reel serve`: in-process TTFF (median of RUNS), decode throughput with one thread, and a whole
# process that stops at the first frame. Prints a table, or JSON with --json. Uses the release
# build (`make release`) and hyperfine. Numbers, not pass/fail: run it on a quiet machine.
#
#   scripts/measure-play.sh [--json]        SAMPLES="s01 s02" RUNS=10 to narrow it
set -euo pipefail
cd "$(dirname "$0")/.."
REEL=${REEL:-.build/release/reel}
RUNS=${RUNS:-10}
SAMPLES=${SAMPLES:-"s01 s02 s03 s04 s07 s08"}
json=${1:-}

for tool in "$REEL" ffmpeg hyperfine python3; do
  command -v "$tool" >/dev/null || { echo "measure-play: $tool is missing (make release; apt-get install hyperfine ffmpeg)" >&2; exit 2; }
done

work=$(mktemp -d)
"$REEL" serve Samples >"$work/serve.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  base=$(head -1 "$work/serve.log" | grep -o 'http://[^ ]*' || true)
  [ -n "$base" ] && break
  sleep 0.05
done
[ -n "$base" ] || { echo "measure-play: reel serve did not start: $(cat "$work/serve.log")" >&2; exit 1; }

for name in $SAMPLES; do
  entry=$(python3 -c "import json,sys; print(next(s['entry'] for s in json.load(open('Samples/samples.json')) if s['name']==sys.argv[1]))" "$name")
  url="${base%/}/$entry"
  # In-process TTFF: what reel play reports, each run with a cold cache.
  for run in $(seq "$RUNS"); do
    "$REEL" play "$url" --frames 1 --fast --no-cache --json | python3 -c "import json,sys; print(json.load(sys.stdin)['ttffMs'])"
  done >"$work/$name.ttff"
  hyperfine --style none --warmup 1 --runs 5 --export-json "$work/$name.decode.json" \
    "$REEL play $url --fast --threads 1 --no-audio --no-cache" \
    "ffmpeg -v error -nostdin -threads 1 -i $url -map 0:v -f null -" >/dev/null 2>&1
  hyperfine --style none --warmup 2 --runs "$RUNS" --export-json "$work/$name.first.json" \
    "$REEL play $url --frames 1 --fast --no-cache" \
    "ffmpeg -v error -nostdin -i $url -frames:v 1 -f null -" >/dev/null 2>&1
done

python3 - "$work" "$json" $SAMPLES <<'EOF'
import json, statistics, sys
work, mode, names = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = []
for name in names:
    ttff = sorted(float(line) for line in open(f"{work}/{name}.ttff"))
    decode = [r["median"] for r in json.load(open(f"{work}/{name}.decode.json"))["results"]]
    first = [r["median"] for r in json.load(open(f"{work}/{name}.first.json"))["results"]]
    rows.append({"sample": name, "ttffMedianMs": round(statistics.median(ttff), 2), "ttffMinMs": round(ttff[0], 2),
                 "decodeSeconds": {"reel": round(decode[0], 3), "ffmpeg": round(decode[1], 3)},
                 "throughputVsFFmpeg": round(decode[1] / decode[0], 3),
                 "firstFrameProcessSeconds": {"reel": round(first[0], 3), "ffmpeg": round(first[1], 3)}})
if mode == "--json":
    print(json.dumps(rows, indent=1))
else:
    print(f"{'sample':8}{'TTFF p50 ms':>12}{'min':>8}{'decode reel s':>15}{'ffmpeg s':>10}{'x ffmpeg':>10}{'1 frame reel s':>16}{'ffmpeg s':>10}")
    for r in rows:
        print(f"{r['sample']:8}{r['ttffMedianMs']:>12}{r['ttffMinMs']:>8}{r['decodeSeconds']['reel']:>15}{r['decodeSeconds']['ffmpeg']:>10}"
              f"{r['throughputVsFFmpeg']:>10}{r['firstFrameProcessSeconds']['reel']:>16}{r['firstFrameProcessSeconds']['ffmpeg']:>10}")
EOF
