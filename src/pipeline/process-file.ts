/**
 * One corpus file from bytes to table rows: hash, load, detect the task version, grade every
 * simulation, build the rows. Shared by the in-thread path and the worker threads.
 */
import { createHash } from "node:crypto";
import type { ExperimentConfig } from "../experiments/config.ts";
import { FormatError } from "../formats/errors.ts";
import { fileWarnings } from "../formats/file-warnings.ts";
import { loadJsonFile } from "../formats/load.ts";
import { readRegularFile } from "../formats/read-json.ts";
import { detectTaskVersion } from "../formats/task-version.ts";
import type { GraderId } from "../graders/registry.ts";
import { sha256Hex } from "../py/json.ts";
import { type PackedBatch, packRows, type RowOf, type TableName } from "../store/schema.ts";
import type { ContextPool } from "./contexts.ts";
import { fileDomain } from "./domains.ts";
import { type GradeSettings, gradeFile, type ModuleGraderWatch, prefetchFileAt } from "./grade.ts";
import {
  appendSimulationRows,
  emptyBatch,
  FILE_TABLES,
  type FileContext,
  fileRow,
  metaOf,
  type SimulationBatch,
  unloadedMeta,
} from "./store-rows.ts";

export interface FileJob {
  readonly full: string;
  /** The path recorded in the store (relative to the corpus root). */
  readonly path: string;
  /** Why the file is not read at all (a symlink out of the corpus root). */
  readonly refused?: string;
  /**
   * Simulations (by index in the file) a grader module gave no verdict on in time when a thread graded
   * the file before, with their error rows: graded no more.
   */
  readonly overdue?: ReadonlyMap<number, string>;
}

export type FileResult =
  | { readonly kind: "skipped"; readonly path: string; readonly fileId: string }
  | {
      readonly kind: "graded" | "not-trajectories" | "error";
      readonly path: string;
      readonly fileId: string;
      readonly fileRow: RowOf<"files">;
      /** Rows packed in column order: what crosses from a grading thread. */
      readonly batch: PackedBatch;
      readonly simulations: number;
      readonly errors: number;
      /** Things worth a line on the terminal that are not errors (duplicate ids, task fields not understood). */
      readonly warnings?: readonly string[];
    };

export interface FileDeps {
  readonly runId: string;
  readonly dataDir: string;
  readonly pool: ContextPool;
  readonly settings: GradeSettings;
  /** Each selected grader's spec hash, stored with every verdict. */
  readonly hashes: Readonly<Partial<Record<GraderId, string>>>;
  /** Whose conversations the store keeps (see `RowContext`). */
  readonly conversations: "disagreements" | "all";
  /** A comparison reads the recorded reward (see `RowContext`). */
  readonly compareRecorded: boolean;
  readonly exclusions: ExperimentConfig["exclude_from_rankings"];
  /** Files already committed under this run (skipped). */
  readonly committed: ReadonlySet<string>;
}

/** The reason of the first exclusion matching a file by its path and agent model; null when none does. */
export function exclusionFor(
  exclusions: FileDeps["exclusions"],
  path: string,
  agentModel: string | null | undefined,
): string | null {
  for (const e of exclusions) {
    if (e.path_contains !== undefined && !path.includes(e.path_contains)) continue;
    if (e.agent_model !== undefined && agentModel !== e.agent_model) continue;
    return e.reason;
  }
  return null;
}

/** A file that could not be read or parsed: a `files` row and an `errors` row saying why. */
function unreadable(job: FileJob, deps: FileDeps, fileId: string, msg: string): FileResult {
  const ctx: FileContext = {
    runId: deps.runId,
    fileId,
    path: job.path,
    file: unloadedMeta("unreadable"),
    taskVersion: "unknown",
    domain: undefined,
    exclusion: null,
  };
  return {
    kind: "error",
    path: job.path,
    fileId,
    fileRow: fileRow(ctx, "error", msg),
    batch: {
      errors: packRows("errors", [
        { run_id: deps.runId, file_id: fileId, sim_key: "", stage: "load", message: msg },
      ]),
    },
    simulations: 0,
    errors: 1,
  };
}

function packBatch(b: SimulationBatch): PackedBatch {
  const out: PackedBatch = {};
  for (const t of FILE_TABLES) out[t] = packRows(t, b[t] as RowOf<TableName>[]);
  return out;
}

/** A file's id: the sha256 of its bytes. */
const contentId = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** The id of a file that could not be read: its path, as there are no bytes to hash. */
const unreadableId = (job: FileJob): string => sha256Hex(`unreadable:${job.path}`);

/** `watch`: told when a grader module starts and ends a simulation (a grading thread's watchdog). */
export async function processFile(
  job: FileJob,
  deps: FileDeps,
  watch?: ModuleGraderWatch,
): Promise<FileResult> {
  const { runId } = deps;
  if (job.refused !== undefined)
    return unreadable(job, deps, unreadableId(job), `${job.path}: ${job.refused}`);
  let bytes: Buffer;
  try {
    bytes = readRegularFile(job.full);
  } catch (e) {
    const why =
      e instanceof FormatError
        ? e.message.replace(job.full, job.path)
        : `${job.path}: cannot read: ${(e as Error).message}`;
    return unreadable(job, deps, unreadableId(job), why);
  }
  const fileId = contentId(bytes);
  if (deps.committed.has(fileId)) return { kind: "skipped", path: job.path, fileId };
  const base = { runId, fileId, path: job.path };
  let loaded: ReturnType<typeof loadJsonFile>;
  try {
    loaded = loadJsonFile(job.full, bytes);
  } catch (e) {
    const msg =
      e instanceof FormatError
        ? e.message.replace(job.full, job.path)
        : `unexpected: ${(e as Error).message}`;
    return unreadable(job, deps, fileId, msg);
  }
  if (loaded.variant === "not-trajectories") {
    const ctx: FileContext = {
      ...base,
      file: unloadedMeta("not-trajectories"),
      taskVersion: "none",
      domain: undefined,
      exclusion: null,
    };
    return {
      kind: "not-trajectories",
      path: job.path,
      fileId,
      fileRow: fileRow(ctx, "not-trajectories", loaded.reason),
      batch: {},
      simulations: 0,
      errors: 0,
    };
  }
  // A variant's task sets are its own (its overlay data dir), as its grading reads them.
  const resolved = await fileDomain(loaded.info.domain, deps.pool, deps.settings.domainAs);
  const graded = resolved !== null && "def" in resolved ? resolved : null;
  const version = detectTaskVersion(loaded, graded?.pool.dataDir ?? deps.dataDir);
  const domain = graded?.def;
  // gradeFile resolves the same pool and detects the same version from it.
  // Each simulation becomes rows as soon as it is graded: holding every verdict (replayed DB
  // states, evidence) until the file ends kept them alive through many young-generation GCs.
  const rowContext = {
    runId,
    fileId,
    domain,
    hashes: deps.hashes,
    conversations: deps.conversations,
    compareRecorded: deps.compareRecorded,
  };
  const batch = emptyBatch();
  let simulations = 0;
  let taskVersion: string | undefined;
  const taskSetWarnings: string[] = [];
  const grading = { watch, overdue: job.overdue, warn: (line: string) => taskSetWarnings.push(line) };
  for await (const g of gradeFile(loaded, version, deps.pool, deps.settings, grading)) {
    taskVersion ??= g.row.task_version;
    appendSimulationRows(batch, rowContext, g, simulations++);
  }
  const ctx: FileContext = {
    ...base,
    file: metaOf(loaded),
    taskVersion: taskVersion ?? version.version,
    domain,
    exclusion: exclusionFor(deps.exclusions, job.path, loaded.info.agent_model),
  };
  return {
    kind: "graded",
    path: job.path,
    fileId,
    fileRow: fileRow(ctx, "graded", null),
    batch: packBatch(batch),
    simulations,
    errors: batch.errors.length,
    warnings: [...fileWarnings(loaded, job.path), ...taskSetWarnings],
  };
}

/**
 * Loads a file only to start a live judge on it while earlier files are graded; anything wrong with
 * the file is left for `processFile` to report.
 */
export function prefetchFile(job: FileJob, deps: FileDeps): void {
  if (job.refused !== undefined) return;
  prefetchFileAt(job.full, deps.pool, deps.settings, (bytes) => deps.committed.has(contentId(bytes)));
}
