/**
 * `--memory-limit`: DuckDB's memory limit for the store a command opens (else the experiment's
 * `duckdb.memory_limit`, else `defaultMemoryLimit()`), and the one line said when a query exceeds it.
 */
import { defaultMemoryLimit, exhausted, MEMORY_LIMIT_FORMAT, memoryLimitBytes } from "../store/resources.ts";
import { InputError, UsageError } from "./errors.ts";

/** For `.option(...MEMORY_LIMIT_OPTION)`. */
export const MEMORY_LIMIT_OPTION = [
  "--memory-limit <size>",
  `DuckDB's memory for the store, e.g. 4GB; beyond it DuckDB spills to a temp folder (default: the experiment's duckdb.memory_limit, else ${defaultMemoryLimit()})`,
] as const;

/** The flag's limit (checked), else the experiment's; undefined leaves the store's default. */
export function memoryLimitOf(flag: string | undefined, experiment?: string): string | undefined {
  if (flag === undefined) return experiment;
  if (memoryLimitBytes(flag) === null)
    throw new UsageError(`--memory-limit: must be ${MEMORY_LIMIT_FORMAT} (got ${JSON.stringify(flag)})`);
  return flag.trim();
}

/** DuckDB running out of memory or spill space, as one line that says what to change; null for other errors. */
export function outOfMemoryError(e: unknown): InputError | null {
  const what = exhausted(e);
  if (what === null) return null;
  const detail = ((e as Error).message.split("\n")[0] ?? "").replace(/^(Out of Memory|IO) Error:\s*/, "");
  return new InputError(
    `DuckDB ran out of ${what === "memory" ? "memory" : "disk space to spill to"} (${detail}); ` +
      "raise --memory-limit (or the experiment's duckdb.memory_limit), or re-run with a lower ranking.bootstrap_samples",
  );
}
