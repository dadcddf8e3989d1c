#!/usr/bin/env bash
# Measures adaptive bitrate against fixed variants on the bundled bandwidth traces: for each trace,
# one feed session with ABR on and one per fixed policy (ABR off: today's choice, the top variant;
# and the 540p and 360p rungs, by the device's picture box), each on the first 29 s of
# Samples/traces/mixed.jsonl (the default trace), a fresh cache and simulator. Prints a table per
# trace: stalls, stalled time, mean played bitrate, TTFF p50 of the plays that were not prepared
# ahead, prefetch waste, and the share of plays of a prefetched master that started on the
# prefetched variant. Uses the release build (`make release`). Numbers, not pass/fail.
#
#   scripts/measure-abr.sh [OUT_DIR]        TRACES="4g-drop-3g tunnel" to narrow it
set -euo pipefail
cd "$(dirname "$0")/.."
REEL=${REEL:-.build/release/reel}
TRACES=${TRACES:-"4g-steady 4g-drop-3g tunnel cellular"}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
command -v "$REEL" >/dev/null || { echo "measure-abr: $REEL is missing (make release)" >&2; exit 2; }

declare -A policies=(
  [abr]=""
  [fixed-top]="--set abr.enabled=false"
  [fixed-540p]="--set abr.enabled=false --set device.maxVideoWidth=540 --set device.maxVideoHeight=960"
  [fixed-360p]="--set abr.enabled=false --set device.maxVideoWidth=360 --set device.maxVideoHeight=640"
)
for trace in $TRACES; do
  for policy in abr fixed-top fixed-540p fixed-360p; do
    # shellcheck disable=SC2086
    "$REEL" feed run --profile "trace:Samples/bandwidth/$trace.txt" ${policies[$policy]} \
      --events "$out/$trace-$policy.jsonl" --summary "$out/$trace-$policy.json" --json >/dev/null
    echo "measure-abr: $trace $policy done" >&2
  done
done

python3 - "$out" $TRACES <<'EOF'
import json, statistics, sys, re
out, traces = sys.argv[1], sys.argv[2:]
policies = ["abr", "fixed-top", "fixed-540p", "fixed-360p"]

def events(path):
    return [json.loads(line) for line in open(path) if line.strip()]

def unprepared_p50(evs):
    # A play whose player was not prepared ahead spent time on the manifest or the open after the request.
    ttffs = [e["ttffMs"] for e in evs if e["type"] == "firstFrame"
             and e["phases"]["manifestMs"] + e["phases"]["openMs"] > 0]
    return (statistics.median(ttffs), len(ttffs)) if ttffs else (None, 0)

def prefetched_start_share(evs):
    # Plays of a master whose video prefetch fetched a first segment of: did the play start on it?
    master = re.compile(r"/streams/(s\d+)/([^/]+)/seg_000\.")
    prefetched, started = {}, {}
    for e in evs:
        if e["type"] != "fetch":
            continue
        m = master.search(e["url"])
        if not m:
            continue
        video, variant = m.groups()
        if e["origin"] == "prefetch":
            prefetched.setdefault(video, set()).add(variant)
        elif e["origin"] == "playback" and e.get("card"):
            started.setdefault((e["card"], video), variant)
    plays = [(video, variant) for (card, video), variant in started.items() if video in prefetched]
    hits = sum(1 for video, variant in plays if variant in prefetched[video])
    return hits, len(plays)

for trace in traces:
    print(f"\n{trace}")
    print(f"{'policy':12}{'stalls':>8}{'stalled ms':>12}{'mean kbps':>11}{'p50 unprep ms':>15}{'waste KB':>10}{'started on prefetched':>23}{'plays':>7}")
    for policy in policies:
        s = json.load(open(f"{out}/{trace}-{policy}.json"))
        evs = events(f"{out}/{trace}-{policy}.jsonl")
        p50, n = unprepared_p50(evs)
        hits, plays = prefetched_start_share(evs)
        mean = (s.get("abr") or {}).get("meanPlayedKbps")
        print(f"{policy:12}{s['stalls']['count']:>8}{s['stalls']['totalMs']:>12.0f}"
              f"{(mean or 0):>11.0f}{(p50 if p50 is not None else float('nan')):>11.1f} ({n:>2})"
              f"{s['prefetch']['wastedBytes'] / 1000:>10.0f}{f'{hits}/{plays}':>23}{s['plays']:>7}")
print(f"\nfiles: {out}")
EOF
