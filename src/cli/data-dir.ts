/** Resolves the tau2 data dir (`data/tau2` of a tau2-bench checkout) from a flag or the environment. */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "./errors.ts";

export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  const dir = flag ?? env.TAU2_DATA_DIR;
  if (dir === undefined || dir === "") {
    throw new UsageError(
      "no tau2 data dir: pass --data-dir DIR or set TAU2_DATA_DIR (a tau2-bench checkout's data/tau2)",
    );
  }
  if (!existsSync(join(dir, "domains"))) {
    throw new UsageError(`${dir} is not a tau2 data dir (expected a domains/ folder inside)`);
  }
  return resolve(dir);
}
