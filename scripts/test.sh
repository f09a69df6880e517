#!/usr/bin/env bash
# The test command: installs what a clean machine lacks, runs the whole suite, and prints a plain
# "N passed, N failed" line read from vitest's JSON report (CI does not parse vitest's summary).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh || exit 1
# The HTML report's end-to-end test drives headless Chromium (Debian's package, never an upgrade).
bash scripts/ensure-browser.sh
report=$(mktemp -t vitest-report.XXXXXX.json)
npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@"
status=$?
node -e '
  const fs = require("node:fs");
  let r;
  try { r = JSON.parse(fs.readFileSync(process.argv[1], "utf8")); } catch { console.log("0 passed, 1 failed"); process.exit(0); }
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A file that fails to load has no test results of its own: count it as one failure.
  const brokenFiles = (r.testResults ?? []).filter((f) => f.status === "failed" && (f.assertionResults ?? []).length === 0).length;
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests + brokenFiles} failed, ${skipped} skipped`);
' "$report"
rm -f "$report"
exit $status
