#!/usr/bin/env bash
# Test pass time against training time, per model, as a new user runs them: `depbloom train --model
# M` on the embedded Wikipedia stream (3 epochs, seed 0), threads pinned to 2 step workers of 1 + 1
# so every run gets the same budget (the calibrated default may differ from run to run). Prints,
# per model: the seconds of the 3 training passes, of the 3 validation passes, of the whole test
# (replay + both protocols, from test.json), the two ratios and the test's stages (test.json's
# testStageSeconds). Run on a quiet machine; a frozen
# jar (JAR=path/to/depbloom.jar, with its lib/ beside it) keeps a rebuild out of the timing.
# Usage: bench/test-pass-ratio.sh [MODEL...]   (default: all five; about 25 minutes on 2 cores)
# OUT: output folder (default runs/test-pass-ratio). REPEATS=N runs each model N times (a row per
# run) and ends each model with its median ratio and how many runs are at or under 0.5: the
# machine's speed moves by 10% from run to run, more than JODIE's margin.
set -euo pipefail
cd "$(dirname "$0")/.."
models=("${@:-jodie tgn apan tgat dysat}")
out=${OUT:-runs/test-pass-ratio}
mkdir -p "$out"
if [[ -n "${JAR:-}" ]]; then
  run=(env GLIBC_TUNABLES="$(sed -n 's/^tunables="\(.*\)"$/\1/p' depbloom)" java -jar "$JAR") # the launcher's
else
  run=(./depbloom)
fi
printf '| model | load (1 min, start-end) | training (3 passes) | validation (3 passes) | test, both protocols | test / training | test / (training + validation) | test by stage (s) |\n'
printf '|---|---|---|---|---|---|---|---|\n'
repeats=${REPEATS:-1}
for m in ${models[@]}; do
  rm -f "$out/$m.ratios" # one line per run: test / training
  for r in $(seq 1 "$repeats"); do
    dir="$out/$m"
    [[ "$repeats" -gt 1 ]] && dir="$out/$m-$r"
    rm -rf "${dir:?}"
    before=$(cut -d' ' -f1 /proc/loadavg)
    "${run[@]}" train --model "$m" --threads 1,1,2 --out "$dir" --quiet --json > "$dir.json"
    after=$(cut -d' ' -f1 /proc/loadavg)
    python3 - "$m" "$dir" "$before" "$after" "$out/$m.ratios" <<'PY'
import json, sys
m, run, before, after, ratios = sys.argv[1:]
epochs = [json.loads(l) for l in open(f"{run}/metrics.jsonl")]
train = sum(e["trainSeconds"] for e in epochs)
val = sum(e["valSeconds"] for e in epochs)
t = json.load(open(f"{run}/test.json"))
test = t["testSeconds"]
stages = ", ".join(f"{k} {v:.2f}" for k, v in t.get("testStageSeconds", {}).items())
print(f"| {m} | {before}-{after} | {train:.1f} s | {val:.1f} s | {test:.1f} s | {test / train:.2f} | {test / (train + val):.2f} | {stages} |", flush=True)
with open(ratios, "a") as f:
    f.write(f"{test / train}\n")
PY
  done
  if [[ "$repeats" -gt 1 ]]; then
    python3 - "$m" "$out/$m.ratios" <<'PY'
import statistics, sys
m = sys.argv[1]
ratios = [float(l) for l in open(sys.argv[2])]
n = len(ratios)
under = sum(1 for x in ratios if x <= 0.5)
print(f"| {m}: median of {n} | | | | | {statistics.median(ratios):.2f} | | {under} of {n} runs at or under 0.5 |", flush=True)
PY
  fi
done
