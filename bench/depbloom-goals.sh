#!/usr/bin/env bash
# Every measurement behind issue 8's goals, in one go, on a quiet machine (2 cores):
#   1. G = 2 on 2 workers, measured: sequential, disttgl (i=2 k=1, i=1 k=2) and depbloom, TGN on
#      Wikipedia -- the "measured, at least 1.3x over disttgl at G = 2" goal.
#   2. G = 8, two queues side by side, each process on one worker (one core each):
#      queue A: TGN on Wikipedia, every row (every disttgl split, depbloom alone and in M = 2, 4
#               memory groups, the three ablations); then APAN and JODIE on Wikipedia (sequential,
#               disttgl with k = 1, 2, 4, depbloom alone and in memory groups).
#      queue B: TGN on email-Eu (every disttgl split, depbloom rows); then bench/depbloom-figures.sh
#               (Fig. 15, 17a).
#   3. g2seeds: the G = 2 measurement again on seeds 1 and 2 (sequential, disttgl i=2, depbloom).
#   4. g8seeds: TGN on Wikipedia at G = 8 on seeds 1 and 2 (sequential, disttgl k = 2, 4, depbloom
#      alone and in memory groups), the two seeds side by side on one core each.
#   5. prefill8: TGN at G = 8, Wikipedia and email-Eu side by side on one core each: sequential,
#      disttgl k = 2, 4, and the depbloom rows without and with window-start prefill
#      (schedule.prefill).
#   6. prefill2: G = 2 on 2 workers, measured, seeds 0, 1, 2: sequential, disttgl i=2, and depbloom
#      without and with prefill.
#   7. prefill8seeds: prefill8's Wikipedia bench on seeds 1 and 2, side by side on one core each;
#      prefill8email: its email-Eu bench on seeds 1 and 2, the same way.
# All with 3 epochs (--mode epochs), seed 0 unless said, one test negative, validation every quarter
# of the training split's events (4 times an epoch of a one-pass row). The converged comparison of
# issue 31 is bench/converged-comparison.sh. Each bench writes comparison.{json,md,png} and comparison-curves.png under $OUT
# (default runs/depbloom-goals), NAME-stages.md its per-stage breakdown (Fig. 18); print every
# row's validation curve with bench/validation-curves.py $OUT/NAME.
# Freeze a jar first and pass it as DEPBLOOM="java -jar ..." so that no rebuild happens mid-run.
# About 80 minutes.
# Usage: [DEPBLOOM=...] [OUT=...] bench/depbloom-goals.sh
#   [g2|g2seeds|g8seeds|prefill8|prefill2|prefill8seeds|prefill8email|queueA|queueB|all]  ("all" runs parts 1 and 2)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
out=${OUT:-runs/depbloom-goals}
mkdir -p "$out"
J=${DEPBLOOM:-./depbloom}
wiki=(--edge-feature-dim 172)
email=(--data ../shared/data/email-Eu-core-temporal.txt.gz)
bench() { # name, then bench options
  local name=$1; shift
  rm -rf "$out/$name"
  # the fixed-epoch comparison these records were taken with (bench schedules' default is now
  # --mode converged); the old default rows and 4 validations an epoch of a one-pass row
  $J bench schedules --mode epochs --epochs 3 --check-every 0.25 --check-devices 2 \
    --rows disttgl,depbloom,prefill,ablations --out "$out/$name" --json "$@" \
    > "$out/$name.log" 2> "$out/$name.err"
  python3 bench/stage-breakdown.py "$out/$name" > "$out/$name-stages.md"
}
# The two queues run side by side: each JVM sees one core (so one worker of intra-op 1 + BLAS 1
# and one sampler thread), never more threads than the machine has.
queueA() {
  export JAVA_TOOL_OPTIONS=-XX:ActiveProcessorCount=1
  bench wiki-tgn-g8 "${wiki[@]}" --model tgn --devices 8 --workers 1 --check-devices 0
  for model in apan jodie; do
    bench "wiki-$model-g8" "${wiki[@]}" --model "$model" --devices 8 --workers 1 \
      --check-devices 0 --rows disttgl,depbloom --disttgl-k 1,2,4
  done
}
queueB() {
  export JAVA_TOOL_OPTIONS=-XX:ActiveProcessorCount=1
  bench email-tgn-g8 "${email[@]}" --model tgn --devices 8 --workers 1 --check-devices 0 \
    --rows disttgl,depbloom
  OUT="$out/figures" WORKERS=1 DEPBLOOM="$J" bench/depbloom-figures.sh all > "$out/figures.md"
}
# prefill8's bench of one data set (name, then its options) on seeds 1 and 2, side by side on one
# core each
prefill8OnSeeds() {
  local data=$1; shift
  export JAVA_TOOL_OPTIONS=-XX:ActiveProcessorCount=1
  for seed in 1 2; do
    bench "$data-tgn-g8-prefill-seed$seed" "$@" --model tgn --devices 8 --workers 1 \
      --check-devices 0 --rows disttgl,depbloom,prefill --disttgl-k 2,4 --seed "$seed" &
  done
  wait
}
case "$what" in
  g2) bench wiki-tgn-g2 "${wiki[@]}" --model tgn --devices 2 --workers 2 --check-devices 0 \
        --rows disttgl,depbloom ;;
  g2seeds)
    for seed in 1 2; do
      bench "wiki-tgn-g2-seed$seed" "${wiki[@]}" --model tgn --devices 2 --workers 2 \
        --check-devices 0 --rows disttgl,depbloom --disttgl-k 1 --seed "$seed"
    done ;;
  g8seeds)
    export JAVA_TOOL_OPTIONS=-XX:ActiveProcessorCount=1
    for seed in 1 2; do
      bench "wiki-tgn-g8-seed$seed" "${wiki[@]}" --model tgn --devices 8 --workers 1 \
        --check-devices 0 --rows disttgl,depbloom --disttgl-k 2,4 --seed "$seed" &
    done
    wait ;;
  prefill8)
    export JAVA_TOOL_OPTIONS=-XX:ActiveProcessorCount=1
    bench wiki-tgn-g8-prefill "${wiki[@]}" --model tgn --devices 8 --workers 1 \
      --check-devices 0 --rows disttgl,depbloom,prefill --disttgl-k 2,4 &
    bench email-tgn-g8-prefill "${email[@]}" --model tgn --devices 8 --workers 1 \
      --check-devices 0 --rows disttgl,depbloom,prefill --disttgl-k 2,4 &
    wait ;;
  prefill2)
    for seed in 0 1 2; do
      bench "wiki-tgn-g2-prefill-seed$seed" "${wiki[@]}" --model tgn --devices 2 --workers 2 \
        --check-devices 0 --rows disttgl,depbloom,prefill --disttgl-k 1 --seed "$seed"
    done ;;
  prefill8seeds) prefill8OnSeeds wiki "${wiki[@]}" ;;
  prefill8email) prefill8OnSeeds email "${email[@]}" ;;
  queueA) queueA ;;
  queueB) queueB ;;
  all)
    bench wiki-tgn-g2 "${wiki[@]}" --model tgn --devices 2 --workers 2 --check-devices 0 \
      --rows disttgl,depbloom
    queueA & a=$!
    queueB & b=$!
    wait $a; wait $b ;;
  *) echo "unknown part $what (g2, g2seeds, g8seeds, prefill8, prefill2, prefill8seeds, prefill8email, queueA, queueB, all)" >&2
     exit 2 ;;
esac
