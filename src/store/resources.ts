/**
 * How much of the machine a store's DuckDB may take. Left to itself DuckDB uses up to 80% of physical
 * memory and spills next to the file; a heavy analysis (a large rank bootstrap) could then take a
 * shared machine. Every store gets an explicit `memory_limit`, and a temp directory it spills to
 * beyond it; a query that still does not fit fails with one line saying which limit to raise.
 */
import { totalmem } from "node:os";

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

/** Below this DuckDB cannot hold the pages of a small store while it scans it. */
const MIN_BYTES = 16 * 2 ** 20;

/** `4GB`, `512MiB`, `1.5 GB`: the sizes DuckDB's memory_limit accepts, in bytes; null for anything else. */
export function memoryLimitBytes(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)\s*$/i.exec(text);
  if (m === null) return null;
  const bytes = Number(m[1]) * (UNITS[(m[2] as string).toLowerCase()] as number);
  return Number.isFinite(bytes) && bytes >= MIN_BYTES ? bytes : null;
}

/** Why a memory limit was refused: the end of a one-line message after the value's name. */
export const MEMORY_LIMIT_FORMAT = "a size such as 4GB, 512MB or 2GiB, at least 16MiB";

/**
 * Half the memory this process may use (its cgroup's limit, else the machine's), at most 4 GiB. At the
 * largest allowed bootstrap a whole `report --html` of the default run peaks under 600 MB, so no allowed
 * analysis spills; half leaves the rest to Node (vega, resvg, grading threads) and to whatever else runs,
 * and a runaway query spills beyond 4 GiB rather than take more of a shared machine.
 */
export function defaultMemoryLimit(): string {
  const cgroup = process.constrainedMemory();
  const machine = cgroup > 0 && cgroup < totalmem() ? cgroup : totalmem();
  const mib = Math.max(MIN_BYTES, Math.min(4 * 2 ** 30, machine / 2)) / 2 ** 20;
  return `${Math.floor(mib)}MiB`;
}

/** What a DuckDB error says ran out: memory (beyond what it could spill), or the disk it spills to. */
export function exhausted(e: unknown): "memory" | "disk" | null {
  if (!(e instanceof Error)) return null;
  if (/^Out of Memory Error\b/.test(e.message)) return "memory";
  if (/^IO Error\b.*No space left on device/.test(e.message)) return "disk";
  return null;
}
