#!/usr/bin/env bash
# The dependency profile (`depbloom profile --devices 8 --json`) of the shared data sets: wall time,
# the paper's Fig. 5a (cross-chain share against P at the candidate window nearest the paper's
# 12,000: the profile's windows are multiples of G x B, 14,400 at G = 8, contiguous vs topology),
# lost dependencies under both read rules, batched reads (the recommendation's score) per window,
# partitioner and P, intra-batch staleness, hot/cold rows at batch 600 and the
# recommendation. Writes the JSON of each run to $OUT (default runs/profile).
# Usage: bench/profile.sh [SHARED_DATA_DIR]   (default ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
out=${OUT:-runs/profile}
mkdir -p "$out"
files=${FILES:-"wikipedia.csv.gz email-Eu-core-temporal.txt.gz CollegeMsg.txt.gz soc-sign-bitcoinotc.csv.gz"}
for f in $files; do
  start=$(date +%s.%N)
  ${DEPBLOOM:-./depbloom} profile --data "$data/$f" --devices 8 --json 2>/dev/null | tail -n 1 > "$out/$f.json"
  end=$(date +%s.%N)
  python3 - "$f" "$out/$f.json" "$start" "$end" <<'PY'
import json, sys
f, path, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
j = json.load(open(path))
pct = lambda x: f"{100 * x:.1f}%"
def m(w, part, p):
    return next(x for x in j["partitions"] if x["window"] == w and x["partitioner"] == part and x["chains"] == p)
fig5 = min({x["window"] for x in j["partitions"]}, key=lambda w: abs(w - 12000))
print(f"\n### {f}: {j['to']:,} training events, {end - start:.1f} s wall ({j['seconds']:.1f} s profiling)\n")
print(f"windows of {fig5:,} events\n")
print("| P | cross-chain contiguous | cross-chain topology | lost contiguous (owned-rows / own-writes) | lost topology (owned-rows / own-writes) |")
print("|---|---|---|---|---|")
for p in (1, 2, 4, 8):
    c, t = m(fig5, "contiguous", p), m(fig5, "topology", p)
    lost = lambda x: f"{pct(x['lostOwnedRows']['eventShare'])} / {pct(x['lostOwnWrites']['eventShare'])}"
    print(f"| {p} | {pct(c['crossChainShare'])} | {pct(t['crossChainShare'])} | {lost(c)} | {lost(t)} |")
print()
print("batched reads (own-writes): events reading older memory than sequential at batch B on the candidate's batches, without / with refinement\n")
print("| window | P x k | contiguous | topology |")
print("|---|---|---|---|")
for w in sorted({x["window"] for x in j["partitions"]}):
    for p in sorted({x["chains"] for x in j["partitions"]}):
        cells = []
        for part in ("contiguous", "topology"):
            b = m(w, part, p)["batchedOwnWrites"]
            cells.append(f"{pct(b['eventShare'])} / {pct(b['refinedEventShare'])}")
        k = j["devices"] // p
        print(f"| {w:,} | {p} x {k} | {cells[0]} | {cells[1]} |")
print()
print("| k | large batch | stale | within micro-batch | recoverable |")
print("|---|---|---|---|---|")
for s in j["staleness"]:
    print(f"| {s['microBatches']} | {s['largeBatch']:,} | {pct(s['staleShare'])} | {pct(s['residualShare'])} | {pct(s['recoverableShare'])} |")
h = {(x["reads"], x["withNegatives"]): x for x in j["hotCold"] if x["batchSize"] == 600}
print()
print(f"batch 600: roots-only cold {pct(h[('roots', False)]['coldShare'])} (with negatives {pct(h[('roots', True)]['coldShare'])}); "
      f"TGN-style hot {pct(h[('roots+recent10', False)]['hotShare'])} (with negatives {pct(h[('roots+recent10', True)]['hotShare'])})")
r = j["recommendation"]
print(f"\nrecommendation: window {r['window']:,}, {r['partitioner']}, P = {r['chains']}, k = {r['microBatches']}")
PY
done
