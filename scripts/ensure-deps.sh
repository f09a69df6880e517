#!/usr/bin/env bash
# Installs the locked npm dependencies when node_modules is missing or older than the lock file, then
# builds dist/ when it is stale (scripts/ensure-build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.install-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  npm ci --no-audit --no-fund >&2
  touch "$stamp"
fi
bash scripts/ensure-build.sh
