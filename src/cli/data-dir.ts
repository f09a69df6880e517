/** Resolves the tau2 data dir (`data/tau2` of a tau2-bench checkout) from a flag or the environment. */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "./errors.ts";
import type { Env } from "./io.ts";

/** The validated data dir, or null when neither the flag nor `TAU2_DATA_DIR` names one. */
export function optionalDataDir(flag: string | undefined, env: Env): string | null {
  const dir = flag ?? env.TAU2_DATA_DIR;
  if (dir === undefined || dir === "") return null;
  const source = flag !== undefined ? "--data-dir" : "TAU2_DATA_DIR";
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(`${source}: ${dir} is not a directory`);
  if (!existsSync(join(dir, "domains"))) {
    throw new UsageError(`${source}: ${dir} has no domains/ folder (expected a tau2-bench data/tau2 dir)`);
  }
  return resolve(dir);
}

/** The validated data dir; a usage error when none is given. */
export function resolveDataDir(flag: string | undefined, env: Env): string {
  const dir = optionalDataDir(flag, env);
  if (dir === null) {
    throw new UsageError(
      "no tau2 data dir: pass --data-dir DIR or set TAU2_DATA_DIR (a tau2-bench checkout's data/tau2)",
    );
  }
  return dir;
}
