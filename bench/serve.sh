#!/usr/bin/env bash
# Serving speed of a trained TGN on the Wikipedia stream (issue 33): `depbloom bench serve` through
# the Java API in one JVM: score latency for 1, 100 and 1,000 pairs, observe latency for batches of
# 1, 100 and 600 of the run's test events (and of 600 with the write-ahead journal forced to disk
# per batch, as depbloom serve runs), the events observed per second while another thread
# scores single pairs, and a single pair's score over HTTP on loopback; the run's own training
# events/s beside them. Trains the run first when none is given (`./depbloom train`: TGN, 3 epochs,
# threads 1,1,2, about 2 minutes on 2 cores). Repeats the benchmark REPEATS times (default 3) and
# ends with the median of each cell over the repeats: the machine is shared and noisy.
# Usage: bench/serve.sh [RUN_DIR]      REPEATS=N, SCORES=N (timed single-pair scores, default 2000)
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:-}
out=${OUT:-runs/serve-bench}
mkdir -p "$out"
if [[ -z "$run" ]]; then
  run="$out/tgn-wikipedia"
  if [[ ! -f "$run/state.json" ]]; then
    rm -rf "$run"
    ./depbloom train --threads 1,1,2 --seed 0 --out "$run" --quiet --json > "$out/train.json"
  fi
fi
repeats=${REPEATS:-3}
for r in $(seq 1 "$repeats"); do
  echo "run $r of $repeats ($(date -u +%FT%TZ), load $(cut -d' ' -f1 /proc/loadavg))"
  ./depbloom bench serve "$run" --repeats "${SCORES:-2000}" --http | tee "$out/table-$r.md"
  echo
done
echo "median of $repeats runs:"
python3 - "$out" "$repeats" <<'PY'
import re, statistics, sys
out, n = sys.argv[1], int(sys.argv[2])
tables = [[l for l in open(f"{out}/table-{r}.md").read().splitlines() if l.startswith("|")]
          for r in range(1, n + 1)]
def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]
def number(c):
    m = re.match(r"^([\d,]+(?:\.\d+)?)(.*)$", c)
    return (float(m.group(1).replace(",", "")), m.group(2)) if m else None
for rows in zip(*tables):
    first = cells(rows[0])
    if first[0] == "operation" or set(first[0]) <= set("-"):
        print(rows[0])
        continue
    merged = list(first)
    for k in range(3, len(first)):  # p50, p99, CPU p50, CPU p99, throughput
        vals = [number(cells(r)[k]) for r in rows]
        if all(v is not None for v in vals):
            med = statistics.median(v[0] for v in vals)
            merged[k] = (f"{med:,.0f}" if k == len(first) - 1 else f"{med:.2f}") + vals[0][1]
    print("| " + " | ".join(merged) + " |")
PY
