/**
 * Vitest global setup: every test run gets its own temporary folder as `TMPDIR` (the forks inherit it,
 * so `os.tmpdir()` in a test names it), and the folder goes when the run ends, passed or failed: tests
 * make throwaway data dirs, stores and trajectory files without each cleaning up after itself.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "tau-rescore-tests-"));
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
