#!/usr/bin/env bash
# Builds Reel's libFuzzer targets (the Fuzz/ package, in .build-fuzz) and runs each for
# FUZZ_SECONDS. A crash, an input slower than FUZZ_TIMEOUT seconds or one needing more than
# FUZZ_RSS_MB fails the run; libFuzzer leaves the input in .build-fuzz/findings/<target>/.
# Seeds: the committed Fuzz/Corpus/<target>/, plus the public conformance inputs
# (../shared/conformance, or REEL_CONFORMANCE_DIR), copied into the build folder at run time:
# they are never committed. What the fuzzer learns stays in .build-fuzz/corpus/<target>/.
# A target runs as a series of processes of FUZZ_CHUNK_SECONDS each (60 by default): Foundation's
# XMLParser leaks a string for every libxml2 error it reports, some 200 MB over 400,000 malformed
# MPDs, which would otherwise end a long run on the memory limit with no input to blame.
#
#   scripts/fuzz.sh                          FUZZ_SECONDS=600 FUZZ_TARGETS="hls dash" for longer, narrower runs
#   scripts/fuzz.sh .build-fuzz/findings/dash/crash-...   replay inputs through their target (FUZZ_TARGETS=dash)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
FUZZ_TARGETS=${FUZZ_TARGETS:-"hls dash config json lottie launchstate cacheindex"}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-2}
FUZZ_RSS_MB=${FUZZ_RSS_MB:-400}
FUZZ_CHUNK_SECONDS=${FUZZ_CHUNK_SECONDS:-60}
# release (the default: more executions a second, 2.4 times debug's for hls and far more for config
# and lottie) or debug (half the build time, for the short pass `make test` runs).
FUZZ_CONFIG=${FUZZ_CONFIG:-release}
case "$FUZZ_CONFIG" in release|debug) ;; *) echo "fuzz: FUZZ_CONFIG is release or debug, not '$FUZZ_CONFIG'" >&2; exit 2 ;; esac
SCRATCH=$PWD/.build-fuzz
# A trap must reach libFuzzer's signal handler (which saves the input), not the Swift runtime's backtracer.
export SWIFT_BACKTRACE=enable=no
CONFORMANCE=${REEL_CONFORMANCE_DIR:-$PWD/../shared/conformance}

binary() {
  case "$1" in
    cacheindex) echo FuzzCacheIndex ;;
    hls) echo FuzzHLS ;;
    dash) echo FuzzDASH ;;
    config) echo FuzzConfig ;;
    json) echo FuzzJSON ;;
    lottie) echo FuzzLottie ;;
    launchstate) echo FuzzLaunchState ;;
    *) echo "fuzz: unknown target '$1' (hls, dash, config, json, lottie, launchstate, cacheindex)" >&2; exit 2 ;;
  esac
}
for target in $FUZZ_TARGETS; do binary "$target" >/dev/null; done

echo "Building the fuzz targets ($FUZZ_CONFIG, -sanitize=fuzzer) in .build-fuzz..."
# FUZZ_SWIFT_FLAGS: more `swift build` options (make fuzz-short passes the test builds' whole-module flags).
# shellcheck disable=SC2086
"$SWIFT" build -c "$FUZZ_CONFIG" --package-path Fuzz --scratch-path "$SCRATCH" \
  -Xswiftc -sanitize=fuzzer ${FUZZ_SWIFT_FLAGS:-}
bin=$SCRATCH/$FUZZ_CONFIG

if [ $# -gt 0 ]; then
  # Replay: each file once through the first target, no fuzzing.
  set -- "$@"
  target=${FUZZ_TARGETS%% *}
  exec "$bin/$(binary "$target")" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb="$FUZZ_RSS_MB" "$@"
fi

# Conformance inputs as extra seeds, copied at run time.
seeds() {
  local target=$1 out=$SCRATCH/seeds/$1
  rm -rf "$out"
  mkdir -p "$out"
  [ -d "$CONFORMANCE" ] || { echo "  (no conformance data at $CONFORMANCE; committed seeds only)" >&2; return; }
  case "$target" in
    hls) find "$CONFORMANCE/hls-m3u8-parser" -name '*.m3u8' -size -64k -exec cp {} "$out/" \; ;;
    dash) find "$CONFORMANCE/dash-mpd-parser" -name '*.mpd' -size -64k -exec cp {} "$out/" \; ;;
    json) find "$CONFORMANCE" -path '*expected-json*' -name '*.json' -size -64k | head -200 | while read -r file; do
            cp "$file" "$out/$(basename "$(dirname "$(dirname "$file")")")-$(basename "$file")"
          done ;;
    config) ;;
  esac
}

# One target's run; its one-line result goes to $SCRATCH/results/<target> ("ok ..." or "failed ...").
fuzz_target() {
  local target=$1 name work findings log status elapsed runs chunk started took done_runs rate artifact
  name=$(binary "$target")
  work=$SCRATCH/corpus/$target
  findings=$SCRATCH/findings/$target
  log=$SCRATCH/logs/$target.log
  mkdir -p "$work" "$findings" "$(dirname "$log")"
  seeds "$target"
  : >"$log"
  status=0
  elapsed=0
  runs=0
  while [ "$elapsed" -lt "$FUZZ_SECONDS" ]; do
    chunk=$((FUZZ_SECONDS - elapsed))
    [ "$chunk" -gt "$FUZZ_CHUNK_SECONDS" ] && chunk=$FUZZ_CHUNK_SECONDS
    started=$(date +%s)
    "$bin/$name" "$work" "Fuzz/Corpus/$target" "$SCRATCH/seeds/$target" \
      -dict="Fuzz/Dictionaries/$target.dict" -max_total_time="$chunk" -timeout="$FUZZ_TIMEOUT" \
      -rss_limit_mb="$FUZZ_RSS_MB" -malloc_limit_mb="$FUZZ_RSS_MB" -artifact_prefix="$findings/" \
      -print_final_stats=1 >>"$log" 2>&1 || status=$?
    took=$(($(date +%s) - started))
    elapsed=$((elapsed + (took > 0 ? took : 1)))
    done_runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || echo 0)
    [ "$status" -eq 0 ] && runs=$((runs + done_runs))
    [ "$status" -eq 0 ] || break
  done
  rate=$((runs / (elapsed > 0 ? elapsed : 1)))
  if [ "$status" -eq 0 ]; then
    echo "ok $target: clean for $elapsed s, $runs runs, $rate exec/s" >"$SCRATCH/results/$target"
  else
    artifact=$(grep -o 'Test unit written to [^ ]*' "$log" | tail -1 | sed 's/Test unit written to //' || true)
    {
      echo "failed $target: FAILED (exit $status) after $elapsed s, $runs runs before the failing process; input: ${artifact:-see $log}"
      grep -E 'ERROR: libFuzzer|Fatal error|==ERROR|SUMMARY' "$log" | head -5 | sed 's/^/    /' || true
    } >"$SCRATCH/results/$target"
  fi
}

# Each fuzzer is one process on one core: FUZZ_JOBS of them (the cores, by default) run at once,
# so every target still gets FUZZ_SECONDS of a core and the pass takes a fraction of the time.
FUZZ_JOBS=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
rm -rf "$SCRATCH/results"
mkdir -p "$SCRATCH/results"
for target in $FUZZ_TARGETS; do
  while [ "$(jobs -rp | wc -l)" -ge "$FUZZ_JOBS" ]; do wait -n || true; done
  echo "Fuzzing $target ($(binary "$target")) for $FUZZ_SECONDS s: timeout ${FUZZ_TIMEOUT} s, memory ${FUZZ_RSS_MB} MB..."
  fuzz_target "$target" &
done
wait

failed=()
summary=()
for target in $FUZZ_TARGETS; do
  result=$SCRATCH/results/$target
  if [ ! -s "$result" ]; then
    failed+=("$target")
    summary+=("$target: no result (the fuzzing job ended without one; see .build-fuzz/logs/$target.log)")
    continue
  fi
  first=$(head -1 "$result")
  summary+=("${first#* }")
  case "$first" in
    ok\ *) ;;
    *) failed+=("$target"); tail -n +2 "$result" ;;
  esac
done

echo
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]}; logs in .build-fuzz/logs/, inputs in .build-fuzz/findings/" >&2
  exit 1
fi
