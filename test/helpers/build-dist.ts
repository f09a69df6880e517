/**
 * Vitest global setup: tests that spawn the command line run bin/, which runs dist/, so dist/ is
 * rebuilt first when a source is newer (scripts/ensure-build.sh; nothing to do takes a few ms).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";

export default function setup(): void {
  const r = spawnSync("bash", [join(import.meta.dirname, "../../scripts/ensure-build.sh")], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new Error(`building dist/ failed (scripts/ensure-build.sh exited ${r.status})`);
}
