#!/usr/bin/env bash
# DepBloom's window-end merge on coarse time (issue 34): TGN on USLegis (12 distinct timestamps),
# depbloom at G = 4 as the dependency profile chooses it, 3 epochs, seeds 0-2, built at two commits
# side by side: OLD (the merge by time alone, ties to the lowest view) and NEW (the fix), plus
# sequential at NEW for reference. Prints best validation AP and test AP (both protocols) per run.
# Usage: OLD=451eb5f NEW=HEAD bench/uslegis-merge.sh   (about 25 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
old=${OLD:-451eb5f}
new=${NEW:-HEAD}
data=${DATA:-../shared/data/USLegis.csv.gz}
out=${OUT:-runs/uslegis-merge}
mkdir -p "$out"
build() { # commit -> folder holding depbloom.jar and lib/
  local dir="$out/build-$1"
  if [[ ! -f "$dir/target/depbloom.jar" ]]; then
    rm -rf "$dir" && git worktree add -q --detach "$dir" "$1"
    (cd "$dir" && mvn -q -B -DskipTests package)
  fi
  echo "$dir/target/depbloom.jar"
}
old_jar=$(build "$old")
new_jar=$(build "$new")
export GLIBC_TUNABLES="glibc.malloc.hugetlb=1:glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=1073741824:glibc.malloc.top_pad=67108864"
printf '| run | seed | best val AP | test AP (TGL) | test AP (continued) |\n|---|---|---|---|---|\n'
for seed in 0 1 2; do
  for run in old new sequential; do
    jar=$new_jar; schedule=(--schedule depbloom --devices 4)
    [[ $run == old ]] && jar=$old_jar
    [[ $run == sequential ]] && schedule=()
    rm -rf "$out/$run-$seed"
    java -jar "$jar" train --data "$data" "${schedule[@]}" --epochs 3 --seed "$seed" --json --quiet \
      --out "$out/$run-$seed" | tail -n 1 > "$out/$run-$seed.json"
    python3 - "$run" "$seed" "$out/$run-$seed.json" <<'PY'
import json, sys
run, seed, f = sys.argv[1:]
s = json.load(open(f))
print(f"| {run} | {seed} | {s['bestValAp']:.4f} | {s['testAp']:.4f} | {s['testApContinued']:.4f} |")
PY
  done
done
