#!/usr/bin/env bash
# Measures what hostile launch input costs. Assets: the hand cases and COUNT documents from the
# Lottie fuzz target's generator (`FuzzLottie --write-assets`), each checked by `reel splash check`
# in a child process of its own, BATCH assets a run; it reports the verdicts, runs of reel itself
# that crashed, and the largest RSS and time of a child and of reel. Damaged state: ROWS launch
# state databases with one wrong-typed or out-of-range value each, written with Python's sqlite3
# (not Reel's encoder), each opened by `reel launch simulate`; it reports crashes and runs without
# exactly one "is damaged" warning. Numbers, not pass/fail: run it on a quiet machine.
#
#   scripts/measure-hostile-launch.sh        COUNT=1000 ROWS=500 BATCH=25 REEL=.build/release/reel
set -euo pipefail
cd "$(dirname "$0")/.."
REEL=${REEL:-.build/debug/reel}
COUNT=${COUNT:-1000}
ROWS=${ROWS:-500}
BATCH=${BATCH:-25}
SWIFT=${SWIFT:-swift}
SCRATCH=$PWD/.build-fuzz

for tool in "$REEL" python3 /usr/bin/time; do
  command -v "$tool" >/dev/null || { echo "measure-hostile-launch: $tool is missing (swift build --product reel)" >&2; exit 2; }
done
echo "Building the Lottie generator (FuzzLottie in .build-fuzz)..." >&2
"$SWIFT" build -c release --package-path Fuzz --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer --product FuzzLottie >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$SCRATCH/release/FuzzLottie" --write-assets "$work/assets" "$COUNT"

python3 - "$REEL" "$work" "$ROWS" "$BATCH" <<'PY'
import collections, json, os, random, shutil, sqlite3, subprocess, sys

reel, work, rows, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])

def timed(arguments):
    """Runs reel under /usr/bin/time: (status, stdout, stderr, max RSS bytes, seconds)."""
    out = subprocess.run(["/usr/bin/time", "-f", "TIME %M %e", reel] + arguments, capture_output=True, text=True)
    lines = out.stderr.rstrip("\n").split("\n")
    rss, seconds = 0, 0.0
    if lines and lines[-1].startswith("TIME "):
        _, kb, wall = lines.pop().split()
        rss, seconds = int(kb) * 1024, float(wall)
    elif lines and lines[-1].startswith("Command terminated by signal"):
        pass
    return out.returncode, out.stdout, "\n".join(lines), rss, seconds

# Assets.
folder = os.path.join(work, "assets")
names = sorted(os.listdir(folder))
verdicts = collections.Counter()
drawn = 0
reasons = collections.Counter()
crashes, child_rss, child_seconds, child_cpu, parent_rss, parent_seconds = 0, 0, 0.0, 0.0, 0, 0.0
worst = ("", 0, 0.0)
for start in range(0, len(names), batch):
    chunk = names[start:start + batch]
    status, stdout, stderr, rss, seconds = timed(["splash", "check", "--json"] + [os.path.join(folder, n) for n in chunk])
    parent_rss, parent_seconds = max(parent_rss, rss), max(parent_seconds, seconds)
    if status not in (0, 1, 2):
        crashes += 1
        print(f"reel crashed (status {status}) on {chunk[0]}..{chunk[-1]}: {stderr[-300:]}", file=sys.stderr)
        continue
    try:
        reports = json.loads(stdout)
    except ValueError:
        crashes += 1
        continue
    for name, report in zip(chunk, reports):
        verdicts["valid" if report["valid"] else "invalid"] += 1
        drawn += 1 if report.get("renderedFrames") else 0
        if report["problems"]:
            reasons[report["problems"][0].split(":")[0][:60]] += 1
        check = report.get("check") or {}
        if check.get("maxRSSBytes", 0) > worst[1]:
            worst = (name, check["maxRSSBytes"], check["seconds"])
        child_rss = max(child_rss, check.get("maxRSSBytes", 0))
        child_seconds = max(child_seconds, check.get("seconds", 0.0))
        child_cpu = max(child_cpu, check.get("cpuSeconds", 0.0))
    if len(reports) != len(chunk):
        print(f"{len(chunk) - len(reports)} assets without a report in {chunk[0]}..{chunk[-1]}: {stderr[-300:]}", file=sys.stderr)

print(f"assets: {len(names)} ({sum(1 for n in names if n.startswith('hand-'))} hand cases), {dict(verdicts)}, {drawn} drawn by rlottie")
print(f"  reel crashed: {crashes}; largest child RSS {child_rss / 1e6:.1f} MB ({worst[0]}), longest child {child_seconds:.2f} s wall, {child_cpu:.2f} s CPU")
print(f"  reel itself: largest RSS {parent_rss / 1e6:.1f} MB, longest run of {batch} assets {parent_seconds:.1f} s")
print("  first problems: " + "; ".join(f"{count} {reason}" for reason, count in reasons.most_common(8)))

# Damaged rows.
events = os.path.join(work, "events.jsonl")
with open(events, "w") as f:
    f.write('{"t": "2026-11-24T08:00:00Z", "event": "launch"}\n{"t": "2026-11-24T08:01:00Z", "event": "background"}\n')
base = os.path.join(work, "base")
subprocess.run([reel, "launch", "simulate", "--events", events, "--splash-config", "http://127.0.0.1:9/none.json", "--state", base],
               capture_output=True, check=True)
times = ["'soon'", "X'01'", "1e300", "-1e300", "9223372036854775807", "-9223372036854775808"]
damage = {
    "lifecycle": {"launches": ["'many'", "X'00'", "1e300", "-5", "9223372036854775807", "0.5"], "lastEventAt": times,
                  "sessionStart": times, "endedAt": times, "crashGuardPending": ["7", "'yes'", "0.5", "X'00'", "-1"]},
    "display": {"splash": ["X'00FF'", "X''"], "lastShown": times},
    "crash": {"at": times, "sessionSeconds": ["-5", "'long'", "1e300", "X'00'"]},
    "configuration": {"url": ["X'41'"], "fetchedAt": times, "body": ["'text'", "12", "1.5"]},
    "asset": {"url": ["X'41'"], "file": ["X'00'", "'../x'"], "bytes": ["'big'", "-1", "1e300", "9223372036854775807"],
              "checksum": ["1e300", "'sum'", "0.5", "X'00'"], "status": ["'bogus'", "X'00'", "3"], "problem": ["X'00'"],
              "at": times},
}
good = {
    "display": {"splash": "'d'", "lastShown": "1795000000.0"},
    "crash": {"at": "1795000000.0", "sessionSeconds": "4.0"},
    "configuration": {"id": "1", "url": "'https://x/c.json'", "fetchedAt": "1795000000.0", "body": "X'7b7d'"},
    "asset": {"url": "'https://x/a.json'", "file": "NULL", "bytes": "0", "checksum": "0", "status": "'failed'", "problem": "'x'",
              "at": "1795000000.0"},
}
rng = random.Random(22)
row_crashes, not_one_warning, row_rss, row_seconds = 0, 0, 0, 0.0
kinds = collections.Counter()
for index in range(rows):
    table = rng.choice(sorted(damage))
    column = rng.choice(sorted(damage[table]))
    value = rng.choice(damage[table][column])
    state = os.path.join(work, "rows", str(index))
    shutil.copytree(base, state)
    db = sqlite3.connect(os.path.join(state, "launch.sqlite"))
    if table == "lifecycle":
        db.execute(f"UPDATE lifecycle SET {column} = {value}")
    else:
        values = dict(good[table])
        values[column] = value
        db.execute(f"INSERT INTO {table} ({', '.join(values)}) VALUES ({', '.join(values.values())})")
    db.commit()
    db.close()
    kinds[f"{table}.{column}"] += 1
    status, _, stderr, rss, seconds = timed(["launch", "simulate", "--events", events, "--splash-config", "http://127.0.0.1:9/none.json",
                                             "--state", state])
    row_rss, row_seconds = max(row_rss, rss), max(row_seconds, seconds)
    if status != 0:
        row_crashes += 1
        print(f"row {index} ({table}.{column} = {value}): status {status}: {stderr[-300:]}", file=sys.stderr)
    elif stderr.count("is damaged") != 1:
        not_one_warning += 1
        print(f"row {index} ({table}.{column} = {value}): {stderr.count('is damaged')} damage warnings: {stderr[-300:]}", file=sys.stderr)
    shutil.rmtree(state)
print(f"damaged rows: {rows} over {len(kinds)} columns; runs that failed or crashed: {row_crashes}; without exactly one warning: {not_one_warning}")
print(f"  largest RSS {row_rss / 1e6:.1f} MB, longest run {row_seconds:.2f} s")
PY
