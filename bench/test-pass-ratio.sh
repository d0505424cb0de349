#!/usr/bin/env bash
# Test pass time against training time, per model, as a new user runs them: `depbloom train --model
# M` on the embedded Wikipedia stream (3 epochs, seed 0), threads pinned to 2 step workers of 1 + 1
# so every run gets the same budget (the calibrated default may differ from run to run). Prints,
# per model: the seconds of the 3 training passes, of the 3 validation passes, of the whole test
# (replay + both protocols, from test.json), the two ratios and the test's stages (test.json's
# testStageSeconds). Run on a quiet machine; a frozen
# jar (JAR=path/to/depbloom.jar, with its lib/ beside it) keeps a rebuild out of the timing.
# Usage: bench/test-pass-ratio.sh [MODEL...]   (default: all five; about 25 minutes on 2 cores)
# OUT: output folder (default runs/test-pass-ratio).
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
for m in ${models[@]}; do
  rm -rf "${out:?}/$m"
  before=$(cut -d' ' -f1 /proc/loadavg)
  "${run[@]}" train --model "$m" --threads 1,1,2 --out "$out/$m" --quiet --json > "$out/$m.json"
  after=$(cut -d' ' -f1 /proc/loadavg)
  python3 - "$m" "$out/$m" "$before" "$after" <<'PY'
import json, sys
m, run, before, after = sys.argv[1:]
epochs = [json.loads(l) for l in open(f"{run}/metrics.jsonl")]
train = sum(e["trainSeconds"] for e in epochs)
val = sum(e["valSeconds"] for e in epochs)
t = json.load(open(f"{run}/test.json"))
test = t["testSeconds"]
stages = ", ".join(f"{k} {v:.2f}" for k, v in t.get("testStageSeconds", {}).items())
print(f"| {m} | {before}-{after} | {train:.1f} s | {val:.1f} s | {test:.1f} s | {test / train:.2f} | {test / (train + val):.2f} | {stages} |", flush=True)
PY
done
