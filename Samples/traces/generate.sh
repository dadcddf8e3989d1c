#!/usr/bin/env bash
# Regenerates the bundled scroll traces over Samples/video-feed.json with the default
# configuration and screen (390x844 points). Needs a built `reel` (swift build).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reel=${REEL:-$root/.build/debug/reel}
cd "$root"
"$reel" trace generate --pattern browse   --seconds 40 --seed 1 --output "$here/browse.jsonl"
"$reel" trace generate --pattern fling    --seconds 30 --seed 2 --output "$here/fling.jsonl"
"$reel" trace generate --pattern carousel --seconds 40 --seed 3 --output "$here/carousel.jsonl"
"$reel" trace generate --pattern mixed    --seconds 40 --seed 4 --output "$here/mixed.jsonl"
wc -l "$here"/*.jsonl
