#!/usr/bin/env bash
# Resident memory over 5,000 TGN training steps on Wikipedia (172 zero edge features): it must stay
# flat, because every step's native tensors live in a scope that frees them.
# Usage: bench/rss.sh [STEPS] [more bench-train options, e.g. --json]
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-5000}
shift || true
${DEPBLOOM:-./depbloom} bench train --edge-feature-dim 172 --steps "$steps" --rss-every 500 --threads 1,2 "$@"
