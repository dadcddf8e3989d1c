#!/usr/bin/env bash
# Measures adaptive bitrate against the fixed variants on the bundled bandwidth traces, across
# scroll patterns and seeds: one `reel feed sweep` per feed and policy, each cell a 30 s feed
# session with a fresh cache and simulator.
#
# Policies: abr (the default), fixed-top (abr.enabled=false: the choice Reel made before adaptive
# bitrate, the top variant), and, on the traces where a fixed variant stalled, the next rung down
# (fixed-540p, then fixed-360p: abr off under a smaller picture box), so that "the best fixed
# variant that does not stall" is known. Feeds: `ladders` (Samples/video-feed-abr.json, every
# video a master; the catalog loops) and `default` (Samples/video-feed.json; abr and fixed-top).
#
# Prints, per feed and trace: sessions, plays, stalls and stalled time, mean played bitrate of
# the masters (and ABR's share of the best fixed variant that did not stall), TTFF p50 of the
# plays not prepared ahead, prefetch waste, and the plays of a prefetched master that started on
# the prefetched variant. Uses the release build (`make release`). Numbers, not pass/fail; the
# sweeps resume, so an interrupted run goes on where it stopped when given the same OUT_DIR.
#
#   scripts/measure-abr.sh [OUT_DIR]
#   FEEDS="ladders default" TRACES="4g-steady 4g-drop-3g tunnel cellular"
#   PATTERNS=browse,fling,carousel,mixed,watch SEEDS=3 SESSION_SECONDS=30 to narrow or widen it;
#   REPORT_ONLY=1 prints the tables of an OUT_DIR without running anything.
set -euo pipefail
cd "$(dirname "$0")/.."
REEL=${REEL:-.build/release/reel}
FEEDS=${FEEDS:-"ladders default"}
TRACES=${TRACES:-"4g-steady 4g-drop-3g tunnel cellular"}
PATTERNS=${PATTERNS:-browse,fling,carousel,mixed,watch}
SEEDS=${SEEDS:-3}
SESSION_SECONDS=${SESSION_SECONDS:-30}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
command -v "$REEL" >/dev/null || { echo "measure-abr: $REEL is missing (make release)" >&2; exit 2; }

feed_args() {
  case $1 in
    ladders) echo "--feed Samples/video-feed-abr.json --set pagination.loopCatalog=true" ;;
    default) echo "" ;;
    *) echo "measure-abr: unknown feed $1 (ladders, default)" >&2; exit 2 ;;
  esac
}
policy_args() {
  case $1 in
    abr) echo "" ;;
    fixed-top) echo "--set abr.enabled=false" ;;
    fixed-540p) echo "--set abr.enabled=false --set device.maxVideoWidth=540 --set device.maxVideoHeight=960" ;;
    fixed-360p) echo "--set abr.enabled=false --set device.maxVideoWidth=360 --set device.maxVideoHeight=640" ;;
  esac
}

# sweep FEED POLICY TRACE...: the cells of one feed and policy on the given traces.
sweep() {
  local feed=$1 policy=$2
  shift 2
  local profiles=""
  for trace in "$@"; do profiles="$profiles${profiles:+,}trace:Samples/bandwidth/$trace.txt"; done
  # shellcheck disable=SC2046
  "$REEL" feed sweep run $(feed_args "$feed") $(policy_args "$policy") --pattern "$PATTERNS" --seeds "$SEEDS" \
    --seconds "$SESSION_SECONDS" --profile "$profiles" --output "$out/$feed-$policy-$(echo "$@" | tr ' ' '+')" >&2
}

# stalled FOLDER...: the traces on which any session in the folders stalled.
stalled() {
  python3 - "$@" <<'EOF'
import json, os, sys
traces = set()
for folder in sys.argv[1:]:
    matrix = json.load(open(os.path.join(folder, "sweep.json")))
    for cell in matrix["cells"]:
        path = os.path.join(folder, "cells", cell["id"], "summary.json")
        if os.path.exists(path) and json.load(open(path))["stalls"]["count"] > 0:
            traces.add(os.path.basename(cell["profile"]).removesuffix(".txt"))
print(" ".join(sorted(traces)))
EOF
}

if [ -z "${REPORT_ONLY:-}" ]; then
  for feed in $FEEDS; do
    # shellcheck disable=SC2086
    sweep "$feed" abr $TRACES
    # shellcheck disable=SC2086
    sweep "$feed" fixed-top $TRACES
    [ "$feed" = ladders ] || continue
    # Down the ladder only where the rung above stalled somewhere.
    # shellcheck disable=SC2086
    again=$(stalled "$out/$feed-fixed-top-$(echo $TRACES | tr ' ' '+')")
    for policy in fixed-540p fixed-360p; do
      [ -n "$again" ] || break
      # shellcheck disable=SC2086
      sweep "$feed" "$policy" $again
      # shellcheck disable=SC2086
      again=$(stalled "$out/$feed-$policy-$(echo $again | tr ' ' '+')")
    done
  done
fi

python3 - "$out" <<'EOF'
import json, os, re, statistics, sys
out = sys.argv[1]
rows = {}  # (feed, trace, policy) -> figures
for name in sorted(os.listdir(out)):
    folder = os.path.join(out, name)
    if not os.path.exists(os.path.join(folder, "sweep.json")):
        continue
    feed, policy = re.match(r"(ladders|default)-(abr|fixed-top|fixed-540p|fixed-360p)-", name).groups()
    matrix = json.load(open(os.path.join(folder, "sweep.json")))
    for cell in matrix["cells"]:
        cell_dir = os.path.join(folder, "cells", cell["id"])
        if not os.path.exists(os.path.join(cell_dir, "summary.json")):
            continue
        summary = json.load(open(os.path.join(cell_dir, "summary.json")))
        events = [json.loads(line) for line in open(os.path.join(cell_dir, "events.jsonl")) if line.strip()]
        trace = os.path.basename(cell["profile"]).removesuffix(".txt")
        r = rows.setdefault((feed, trace, policy), dict(sessions=0, plays=0, stalls=0, stalled=0.0, kbps_s=0.0, seconds=0.0,
                                                       unprepared=[], waste=0, hits=0, prefetched=0))
        r["sessions"] += 1
        r["plays"] += summary["plays"]
        r["stalls"] += summary["stalls"]["count"]
        r["stalled"] += summary["stalls"]["totalMs"]
        abr = summary.get("abr") or {}
        if abr.get("meanPlayedKbps"):
            r["kbps_s"] += abr["meanPlayedKbps"] * abr["playedSeconds"]
            r["seconds"] += abr["playedSeconds"]
        # Plays not prepared ahead spent time on the manifest or the open after the play request.
        r["unprepared"] += [e["ttffMs"] for e in events if e["type"] == "firstFrame"
                            and e["phases"]["manifestMs"] + e["phases"]["openMs"] > 0]
        r["waste"] += summary["prefetch"]["wastedBytes"]
        # Plays of a master whose first segment prefetch had fetched before the play read it (for
        # any card: the cache is keyed by URL, and the ladders' feed loops): did the play start on
        # a variant prefetch had fetched?
        first = re.compile(r"/streams/(s\d+)/([^/]+)/seg_000\.")
        prefetched, started = {}, {}
        for e in events:
            if e["type"] != "fetch":
                continue
            m = first.search(e["url"])
            if not m:
                continue
            video, variant = m.groups()
            if e["origin"] == "prefetch":
                prefetched.setdefault(video, []).append((e["t"], variant))
            elif e["origin"] == "playback" and e.get("card"):
                started.setdefault((e["card"], video), (e["t"], variant))
        for (card, video), (t, variant) in started.items():
            before = {v for at, v in prefetched.get(video, []) if at <= t}
            if before:
                r["prefetched"] += 1
                r["hits"] += variant in before

def kbps(r):
    return r["kbps_s"] / r["seconds"] if r["seconds"] else None

order = ["abr", "fixed-top", "fixed-540p", "fixed-360p"]
for feed in ["ladders", "default"]:
    traces = sorted({t for f, t, _ in rows if f == feed}, key=lambda t: ["4g-steady", "4g-drop-3g", "tunnel", "cellular"].index(t) if t in ["4g-steady", "4g-drop-3g", "tunnel", "cellular"] else 9)
    if not traces:
        continue
    print(f"\n{feed} feed")
    print(f"{'trace':12}{'policy':12}{'sessions':>9}{'plays':>7}{'stalls':>8}{'stalled s':>11}{'kbps':>7}{'of best':>9}"
          f"{'unprepared p50 ms (n)':>23}{'waste MB':>10}{'on prefetched':>15}")
    for trace in traces:
        fixed = [(p, rows[(feed, trace, p)]) for p in order[1:] if (feed, trace, p) in rows]
        clean = [kbps(r) for p, r in fixed if r["stalls"] == 0 and kbps(r)]
        best = max(clean) if clean else None
        for policy in order:
            r = rows.get((feed, trace, policy))
            if not r:
                continue
            k = kbps(r)
            share = f"{100 * k / best:.0f} %" if k and best else "-"
            p50 = f"{statistics.median(r['unprepared']):.1f} ({len(r['unprepared'])})" if r["unprepared"] else "- (0)"
            hit = f"{r['hits']}/{r['prefetched']}"
            print(f"{trace:12}{policy:12}{r['sessions']:>9}{r['plays']:>7}{r['stalls']:>8}{r['stalled'] / 1000:>11.1f}"
                  f"{(k or 0):>7.0f}{share:>9}{p50:>23}{r['waste'] / 1e6:>10.2f}{hit:>15}")
print(f"\nfolders: {out}")
EOF
