#!/bin/sh
# Scores a Reel policy with the challenge's own, unmodified run.py on its four trace sets, through
# solution.py (next to this script), and prints run.py's averages per set.
#
#   bench/mmgc/score.sh CHECKOUT [POLICY]
#
# CHECKOUT is a clone of AItransCompetition/Short-Video-Streaming-Challenge; POLICY is reel
# (default), no_save or fixed_preload. REEL_BIN picks the reel executable (default: this
# checkout's .build/release/reel). run.py rewrites logs/log.txt and logs/sample_user/user_0.txt in
# CHECKOUT, as it always does; they are restored afterwards when they were unchanged before.
set -eu
checkout=$(cd "${1:?usage: score.sh CHECKOUT [POLICY]}" && pwd)
policy=${2:-reel}
here=$(cd "$(dirname "$0")" && pwd)
restore=no
if git -C "$checkout" diff --quiet -- logs 2>/dev/null; then restore=yes; fi
for set in mixed high low medium; do
  # -P: run.py's own folder would come first on sys.path, and its dummy solution.py would shadow
  # this one; PYTHONPATH puts this folder first and the checkout (for `simulator`) after it.
  out=$(cd "$checkout" && REEL_POLICY="$policy" PYTHONPATH="$here:$checkout" \
        python3 -P run.py --solution "$here" --trace "$set")
  printf '%s\t%s\t' "$policy" "$set"
  printf '%s\n' "$out" | awk '/^Score:/{s=$2} /^Bandwidth Usage:/{b=$3} /^QoE:/{q=$2} /^Sum Wasted Bytes:/{w=$4} /^Wasted time ratio:/{r=$4}
    END {printf "score %s\tqoe %s\tbytes %s\twasted %s\tratio %s\n", s, q, b, w, r}'
done
if [ "$restore" = yes ]; then git -C "$checkout" checkout -- logs; fi
