#!/usr/bin/env bash
# The test command: installs what a clean machine lacks, then runs the typecheck, the linter and the
# whole suite, and prints a plain "N passed, N failed, N skipped" line read from vitest's JSON report
# (a failed typecheck or lint counts as one failure each). Exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
# The HTML report's end-to-end test drives headless Chromium (Debian's package, never an upgrade).
bash scripts/ensure-browser.sh
checks_failed=0
echo "typecheck: tsc --noEmit" >&2
npx tsc -p tsconfig.json --noEmit || checks_failed=$((checks_failed + 1))
echo "lint: biome check ." >&2
npx biome check . || checks_failed=$((checks_failed + 1))
report=$(mktemp -t vitest-report.XXXXXX.json)
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
node -e '
  const fs = require("node:fs");
  const checksFailed = Number(process.argv[2]);
  let r;
  try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch { console.log(`0 passed, ${1 + checksFailed} failed, 0 skipped`); process.exit(0); }
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A file that fails to load has no test results of its own: count it as one failure.
  const brokenFiles = (r.testResults ?? []).filter((f) => f.status === "failed" && (f.assertionResults ?? []).length === 0).length;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests + brokenFiles + checksFailed} failed, ${skipped} skipped`);
' "$report" "$checks_failed"
rm -f "$report"
[ "$checks_failed" = 0 ] || status=1
exit $status
