#!/usr/bin/env bash
# One-shot GPU check of DepBloom-J's TGN cost model (bench/gpu/README.md): device ceilings, the TGN
# training step at batch 600 / 2400 / 4800 on the embedded Wikipedia stream, one profiled step,
# issue 45's regimes (a refined 4 x 600 on one GPU against 600 and 2,400; DistTGL's host-placed step
# with per-edge feature copies), memory placement (device / host pageable / host pinned), the
# deduplicated step, and the project's
# Java GPU test where java, mvn and the GPU natives are present.
#
# Usage: [OUT=DIR] [PYTHON=python3] [BUDGET_S=420] bash bench/gpu-check.sh [--smoke]
#   --smoke: on the CPU, tiny repeat counts, B = 600 only (checks the script, measures nothing useful)
# Writes $OUT/gpu-check.json (full record) and $OUT/gpu-check.log; prints a summary table and, as the
# last line of standard output, one compact JSON object. Each part runs in its own process under
# `timeout`; a part that fails or times out is recorded as such and the others still run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

SMOKE=0
[[ "${1:-}" == "--smoke" ]] && SMOKE=1
START=$(date +%s)
BUDGET=${BUDGET_S:-420}  # seconds for all parts; the report and the shell need a few more (limit: 8 min)
OUT=${OUT:-$(mktemp -d /tmp/gpu-check-out.XXXXXX)}
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/gpu-check-parts.XXXXXX)  # the parts' own JSON files (not in $OUT: 8 files at most)
trap 'rm -rf "$WORK"' EXIT  # merged into $OUT/gpu-check.json by the report (or into the log if it fails)
LOG="$OUT/gpu-check.log"
: >"$LOG"

say() { echo "[gpu-check +$(($(date +%s) - START))s] $*" | tee -a "$LOG"; }

# A Python with torch, numpy and pandas: $PYTHON if set, else the first that imports them.
if [[ -z "${PYTHON:-}" ]]; then
  for candidate in python3 /usr/bin/python3 python; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import torch, numpy, pandas' >/dev/null 2>&1; then
      PYTHON=$candidate
      break
    fi
  done
fi
if [[ -z "${PYTHON:-}" ]]; then
  say "no python with torch, numpy and pandas found"
  echo '{"schema":"depbloom-gpu-check/1","status":"error","error":"no python with torch, numpy and pandas"}'
  exit 1
fi

if [[ $SMOKE == 1 ]]; then
  FLAGS=(--device cpu --smoke)
else
  FLAGS=(--device cuda)
fi
# limited SECONDS COMMAND...: the command under coreutils' timeout (SIGKILL 10 s after SIGTERM);
# without timeout (not seen on any image) it runs unbounded, and the log says so.
limited() {
  local limit=$1
  shift
  if command -v timeout >/dev/null 2>&1; then
    timeout -k 10 "$limit" "$@"
  else
    echo "no timeout command: running without the ${limit}s limit" >>"$LOG"
    "$@"
  fi
}
GPU_CHECK_COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
export GPU_CHECK_COMMIT
say "mode $([[ $SMOKE == 1 ]] && echo smoke || echo full), python $PYTHON, out $OUT, budget ${BUDGET}s, commit $GPU_CHECK_COMMIT"

# run_part NAME CAP_SECONDS [extra args]: runs one part under timeout, within what is left of the
# budget; writes WORK/NAME.rc = "exit-code seconds limit" (exit code -1: not started, no time left).
run_part() {
  local name=$1 cap=$2
  shift 2
  local left=$((START + BUDGET - $(date +%s)))
  local limit=$((cap < left ? cap : left))
  if ((limit < 15)); then
    echo "-1 0 $limit" >"$WORK/$name.rc"
    say "part $name: skipped, ${left}s left in the budget"
    return
  fi
  say "part $name: start (limit ${limit}s)"
  local t0
  t0=$(date +%s)
  limited "$limit" "$PYTHON" bench/gpu/gpu_check.py --part "$name" --out "$WORK/$name.json" \
    "${FLAGS[@]}" "$@" >>"$LOG" 2>&1
  local rc=$?
  echo "$rc $(($(date +%s) - t0)) $limit" >"$WORK/$name.rc"
  say "part $name: exit $rc after $(($(date +%s) - t0))s"
}

# Caps per part, far above the expected run time (README: expected runtime); the order puts the
# parts a device model needs most first, and the Java path, which can take minutes, last.
run_part env 60
run_part ceilings 90
run_part step 120
run_part regimes 120
run_part placement 120
run_part profile 90
run_part dedup 90
run_part java 200 --java-limit 180

REPORT_OUT="$WORK/report.out"
"$PYTHON" bench/gpu/gpu_check.py --report --parts-dir "$WORK" --out-dir "$OUT" --started "$START" \
  >"$REPORT_OUT" 2>>"$LOG"
rc=$?
cat "$REPORT_OUT" >>"$LOG"
if [[ $rc == 0 ]] && tail -n 1 "$REPORT_OUT" | grep -q '^{'; then
  cat "$REPORT_OUT"
else
  cat "$REPORT_OUT"
  say "report failed (exit $rc); the parts' JSON files follow in the log"
  for f in "$WORK"/*.json; do echo "== $f" && cat "$f"; done >>"$LOG" 2>&1
  echo "{\"schema\":\"depbloom-gpu-check/1\",\"status\":\"error\",\"error\":\"report failed with exit $rc, see gpu-check.log\"}" \
    | tee "$OUT/gpu-check.json"
fi
