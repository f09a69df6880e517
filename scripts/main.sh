#!/usr/bin/env bash
# The main job: install what a clean machine lacks, then grade the default corpus with both graders.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
export TAU2_DATA_DIR="${TAU2_DATA_DIR:-$(cd .. && pwd)/shared/tau2-data}"
corpus="${1:-../shared/corpus}"
mkdir -p results
./bin/tau-rescore.js corpus inspect "$corpus" > results/corpus-inspect.txt || true
./bin/tau-rescore.js grade "$corpus" --grader tau3,structured --corrections on > results/verdicts.jsonl
echo "wrote results/corpus-inspect.txt and results/verdicts.jsonl ($(wc -l < results/verdicts.jsonl) simulations)" >&2
