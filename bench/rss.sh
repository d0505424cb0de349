#!/usr/bin/env bash
# Resident memory over 5,000 TGN training steps on Wikipedia (172 zero edge features): it must stay
# flat, because every step's native tensors live in a scope that frees them.
# Usage: [THREADS=1,2] bench/rss.sh [STEPS] [more bench-train options, e.g. --json]   (default budget 1,1,2)
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-5000}
shift || true
${DEPBLOOM:-./depbloom} bench train --edge-feature-dim 172 --steps "$steps" --rss-every 500 --threads "${THREADS:-1,1,2}" "$@"
