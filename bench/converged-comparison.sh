#!/usr/bin/env bash
# The converged comparison of issue 31 (README, "Against DistTGL"): bench schedules in its default
# converged mode (every row to convergence at the best learning rate of lr x {1, sqrt(G), G},
# validations at equal trained events), projected with this machine's costs and onto the A100
# (PCIe and NVLink) and H200 device models. One bench per line of PARTS below, one after another;
# each writes comparison.{md,json} and the plots under $OUT/NAME. Freeze a jar first and pass it as
# DEPBLOOM="java -jar ..." so that no rebuild happens mid-run.
# Usage: [DEPBLOOM=...] [OUT=...] [ROWS=...] [EXTRA=...] bench/converged-comparison.sh [NAME...]
#   (default: all parts). ROWS replaces the row groups (default disttgl,depbloom,prefill); EXTRA is
#   appended to every bench line, e.g. EXTRA="--depbloom-k 1,2,4 --only 'disttgl i=1 j=1 k=8 B=600'".
# About 20-40 minutes a Wikipedia part (TGN; APAN 40), 38-44 an email-Eu part at G = 4 and 60-75
# at G = 8, on 2 cores, with the default rows. With the two rows of run 10 (converged-local.md) at
# 16x and --max-trained 32: Wikipedia TGN 38-42 minutes, APAN 45, JODIE 5 (6 at --max-trained 96),
# email-Eu TGN 46-58 (runs 11-12, on an AVX-512 host; 59 at --lr-grid 8). Run 13 (same host):
# APAN at --lr-grid 8,16 --lr-screen 0, 57 minutes; JODIE with every default row but prefill at
# k = 4, 8 (31 rows, --depbloom-k 1,2,4,8, cap 32), 27. Run 14 (same host): Wikipedia TGN with
# DistTGL and the two P=2 M=4 rows, 41; email-Eu with ROWS=depbloom and the two P=2 M=4 rows
# (stopped early by patience), 22; JODIE with ROWS=prefill at --depbloom-k 4,8 (6 rows), 6. Run 15
# (same host): Wikipedia TGN with DistTGL and two DepBloom rows at --max-trained 64, 62-64.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-runs/converged}
J=${DEPBLOOM:-./depbloom}
mkdir -p "$out"
gpus=(--device-model measured,a100-pcie,a100-nvlink,h200)
# Every part ran with the prefill rows, a default until 2026-12-05; named here so parts rerun alike.
rows=(--rows "${ROWS:-disttgl,depbloom,prefill}")
eval "extra=(${EXTRA:-})"
wiki=(--edge-feature-dim 172)
email=(--data ../shared/data/email-Eu-core-temporal.txt.gz)
declare -A PARTS=(
  [wiki-tgn-g8-s0]="${wiki[*]} --model tgn --devices 8 --seed 0"
  [wiki-tgn-g8-s1]="${wiki[*]} --model tgn --devices 8 --seed 1"
  [wiki-tgn-g8-s2]="${wiki[*]} --model tgn --devices 8 --seed 2"
  [wiki-tgn-g4-s0]="${wiki[*]} --model tgn --devices 4 --seed 0"
  [wiki-tgn-g4-s1]="${wiki[*]} --model tgn --devices 4 --seed 1"
  [wiki-tgn-g4-s2]="${wiki[*]} --model tgn --devices 4 --seed 2"
  [wiki-jodie-g8-s0]="${wiki[*]} --model jodie --devices 8 --seed 0"
  [wiki-apan-g8-s0]="${wiki[*]} --model apan --devices 8 --seed 0"
  [email-tgn-g8-s0]="${email[*]} --model tgn --devices 8 --seed 0"
  [email-tgn-g4-s0]="${email[*]} --model tgn --devices 4 --seed 0"
  [email-tgn-g8-s1]="${email[*]} --model tgn --devices 8 --seed 1"
  [email-tgn-g8-s2]="${email[*]} --model tgn --devices 8 --seed 2"
  [email-tgn-g4-s1]="${email[*]} --model tgn --devices 4 --seed 1"
  [email-tgn-g4-s2]="${email[*]} --model tgn --devices 4 --seed 2"
)
ORDER=(wiki-tgn-g8-s0 wiki-tgn-g4-s0 wiki-jodie-g8-s0 wiki-apan-g8-s0 email-tgn-g8-s0 wiki-tgn-g8-s1
  wiki-tgn-g8-s2 wiki-tgn-g4-s1 wiki-tgn-g4-s2 email-tgn-g4-s0 email-tgn-g8-s1 email-tgn-g8-s2
  email-tgn-g4-s1 email-tgn-g4-s2)
names=("${@:-${ORDER[@]}}")
for name in "${names[@]}"; do
  [[ -n "${PARTS[$name]:-}" ]] || { echo "unknown part $name (parts: ${ORDER[*]})" >&2; exit 2; }
  if [[ -f "$out/$name/comparison.json" ]]; then
    echo "$name: done before, skipped" >&2
    continue
  fi
  rm -rf "$out/$name"
  start=$(date +%s)
  # shellcheck disable=SC2086
  $J bench schedules ${PARTS[$name]} "${gpus[@]}" "${rows[@]}" "${extra[@]}" --out "$out/$name" --json \
    > "$out/$name.log" 2> "$out/$name.err"
  echo "$name: $(( $(date +%s) - start )) s" | tee -a "$out/timings.txt" >&2
done
