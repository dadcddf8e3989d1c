#!/usr/bin/env bash
# Writes the bundled bandwidth traces (synthetic; see README.md here). Deterministic: the
# fluctuating trace comes from a fixed linear congruential generator, not from the shell's RANDOM.
# Usage: Samples/bandwidth/generate.sh   (from anywhere; writes next to this script)
set -euo pipefail
cd "$(dirname "$0")"

{
    echo "# Steady 4g: 8 Mbit/s, 50 ms, for good."
    echo "0 8000 50"
    echo "60 8000 50"
} > 4g-steady.txt

{
    echo "# 4g that drops to a poor 3g (1 Mbit/s, 200 ms) for 10 s, from 10 s to 20 s, then recovers; loops every 40 s."
    echo "0 8000 50"
    echo "10 1000 200"
    echo "20 8000 50"
    echo "40 8000 50"
} > 4g-drop-3g.txt

{
    echo "# 4g with a tunnel: near nothing (20 kbit/s, 300 ms) for 3 s from 12 s; loops every 40 s."
    echo "0 8000 50"
    echo "12 20 300"
    echo "15 8000 50"
    echo "40 8000 50"
} > tunnel.txt

# Fluctuating cellular: one step a second for 60 s. A random walk that drifts back towards
# 3 Mbit/s: each second moves a quarter of the way back to 3000 kbps, then by a random factor of
# x0.5 .. x1.4; kept within 400-7000 kbps. Latency 40-200 ms, rising as bandwidth falls.
{
    echo "# Fluctuating cellular: a seeded random walk around 3 Mbit/s, 1 s steps, 400-7000 kbps, 40-200 ms; loops every 60 s."
    state=20240611
    kbps=3000
    for second in $(seq 0 59); do
        state=$(( (state * 1103515245 + 12345) % 2147483648 ))
        draw=$(( (state / 65536) % 1000 ))                     # 0..999
        kbps=$(( kbps + (3000 - kbps) / 4 ))
        kbps=$(( kbps * (500 + draw * 900 / 1000) / 1000 ))     # x0.5 .. x1.4
        (( kbps < 400 )) && kbps=400
        (( kbps > 7000 )) && kbps=7000
        latency=$(( 200 - (kbps - 400) * 160 / 6600 ))
        echo "$second $kbps $latency"
    done
    echo "60 3000 80"
} > cellular.txt
