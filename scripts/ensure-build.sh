#!/usr/bin/env bash
# Builds dist/ (what bin/ and the grading threads run) when it is missing or older than a source file
# or the build config. Used by scripts/ensure-deps.sh and the test setup (vitest's globalSetup).
set -uo pipefail
cd "$(dirname "$0")/.."
built=dist/.build-stamp
# Folders count too: deleting a source changes its folder's mtime.
fresh() { [ -f "$built" ] && [ -z "$(find src scripts/bundle-zod.mjs tsconfig.json tsconfig.build.json package-lock.json -newer "$built" -print -quit)" ]; }
fresh && exit 0
# One build at a time (test runs started together); the next one finds dist/ fresh.
mkdir -p dist
if command -v flock >/dev/null; then
  exec 9>dist/.build-lock
  flock 9
  fresh && exit 0
fi
started=$(mktemp)
log=$(mktemp)
echo "building dist/ (tsc -b tsconfig.build.json)" >&2
node node_modules/typescript/bin/tsc -b tsconfig.build.json >"$log" 2>&1
status=$?
cat "$log" >&2
# Type errors in sources still emit every file (noEmitOnError is off); the typecheck reports them.
# Any other error (the config, a missing compiler) fails the build.
if [ "$status" != 0 ] && grep -q ': error TS' "$log" && ! grep -v '^src/' "$log" | grep -q 'error TS'; then
  echo "dist/ built despite type errors in src/ (see above)" >&2
  status=0
fi
if [ "$status" = 0 ]; then
  node scripts/bundle-zod.mjs || status=$?
fi
if [ "$status" = 0 ]; then
  # tsc never deletes: drop what a deleted source left, so nothing can still import it.
  node -e '
    const fs = require("node:fs"), path = require("node:path");
    const prune = (dir) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) {
          prune(p);
          if (fs.readdirSync(p).length === 0) fs.rmdirSync(p);
          continue;
        }
        const rel = path.relative("dist", p).replace(/\.map$/, "");
        if (!/\.(js|mjs)$/.test(rel)) continue;
        const sources = [rel.replace(/\.js$/, ".ts"), rel];
        if (!sources.some((s) => fs.existsSync(path.join("src", s)))) fs.rmSync(p);
      }
    };
    prune("dist");'
  touch -r "$started" "$built" # a source saved during the build stays newer than the mark
fi
rm -f "$started" "$log"
exit "$status"
