#!/usr/bin/env bash
# The main job: install what a clean machine lacks and build dist/, grade the default corpus with both graders into
# DuckDB (experiments/default.json), and write the paired-analysis report with charts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
export TAU2_DATA_DIR="${TAU2_DATA_DIR:-$(cd .. && pwd)/shared/tau2-data}"
mkdir -p results
./bin/tau-rescore.js corpus inspect ../shared/corpus > results/corpus-inspect.txt || true
./bin/tau-rescore.js run experiments/default.json
./bin/tau-rescore.js probe --census --db results/default.duckdb > results/probe-census.txt
./bin/tau-rescore.js report --experiment experiments/default.json --out results/report --html
echo "report: results/report/report.html, results/report/report.md, results/report/summary.json" >&2
