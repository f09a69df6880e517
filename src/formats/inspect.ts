/**
 * `corpus inspect` as a library call: lists the `.json` files under the given paths and describes each
 * one (variant, run info, task version, counts, recorded pass rate). A file that fails is reported with
 * its reason; the others still run.
 */
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { FormatError } from "./errors.ts";
import { loadJsonFile } from "./load.ts";
import { isRecord } from "./loaders/raw.ts";
import type { FormatVariant, Task, TrajectoryFile } from "./model.ts";
import { readJsonDocument } from "./read-json.ts";
import { detectTaskVersion, sameGradedContent, type TaskVersion } from "./task-version.ts";
import { listTaskSets, loadTaskFile, type TaskSetRef } from "./tasks.ts";

/** A recorded reward counts as a pass within this distance of 1.0. */
export const PASS_TOLERANCE = 1e-6;

export interface InspectedFile {
  readonly path: string;
  /** null when the file failed to load. */
  readonly variant: FormatVariant | "not-trajectories" | null;
  readonly domain: string | null;
  readonly agent_model: string | null;
  readonly user_model: string | null;
  readonly task_version: string | null;
  readonly simulations: number;
  /** The most simulations recorded for one task id. */
  readonly trials: number;
  readonly with_reward_info: number;
  /** Share of simulations whose recorded reward is 1.0; null without simulations. */
  readonly recorded_pass_rate: number | null;
  /** Simulations that failed validation (each is listed in `rejections`). */
  readonly rejected: number;
  readonly rejections: TrajectoryFile["rejected"];
  /** Why the task version is unknown/none, or why the file holds no trajectories. */
  readonly note: string | null;
  readonly error: string | null;
}

export interface InspectReport {
  readonly files: InspectedFile[];
  readonly totals: {
    readonly files: number;
    readonly trajectory_files: number;
    readonly simulations: number;
    readonly failed_files: number;
  };
}

const EMPTY: Omit<InspectedFile, "path"> = {
  variant: null,
  domain: null,
  agent_model: null,
  user_model: null,
  task_version: null,
  simulations: 0,
  trials: 0,
  with_reward_info: 0,
  recorded_pass_rate: null,
  rejected: 0,
  rejections: [],
  note: null,
  error: null,
};

/** Expands directories (recursively, sorted) to their `.json` files; a named file is kept as given. */
export function listJsonFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && entry.name.toLowerCase().endsWith(".json")) files.push(full);
    }
  };
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch {
      missing.push(p);
      continue;
    }
    if (isDir) walk(p);
    else files.push(p);
  }
  return { files, missing };
}

/** Validated task sets by path, loaded only when a file's version is decided by comparing with them. */
const validatedSets = new Map<string, ReadonlyMap<string, Task>>();

function validatedSet(ref: TaskSetRef): ReadonlyMap<string, Task> {
  const key = resolve(ref.path);
  let tasks = validatedSets.get(key);
  if (tasks === undefined) {
    tasks = new Map(loadTaskFile(ref.path).map((t) => [t.id, t]));
    validatedSets.set(key, tasks);
  }
  return tasks;
}

/** Distinct task ids per set path: the size the tie rule orders sets by. */
const setSizes = new Map<string, number>();

/**
 * A set's distinct task ids from a plain parse (no Python number types, no schema), or null when it
 * is not a JSON list of objects with string ids: such a set is validated instead, so it fails as before.
 */
function plainSetSize(ref: TaskSetRef): number | null {
  if (statSync(ref.path).isDirectory()) return null;
  let doc: ReturnType<typeof readJsonDocument>;
  try {
    doc = readJsonDocument(ref.path, []);
  } catch (err) {
    if (err instanceof FormatError) return null;
    throw err;
  }
  if (doc.kind !== "json" || !Array.isArray(doc.data)) return null;
  const ids = new Set<string>();
  for (const task of doc.data) {
    if (!isRecord(task) || typeof task.id !== "string") return null;
    ids.add(task.id);
  }
  return ids.size;
}

function setSize(ref: TaskSetRef): number {
  const key = resolve(ref.path);
  let size = setSizes.get(key);
  if (size === undefined) {
    size = plainSetSize(ref) ?? validatedSet(ref).size;
    setSizes.set(key, size);
  }
  return size;
}

const equalsSetTask = (set: ReadonlyMap<string, Task>, task: Task): boolean => {
  const own = set.get(task.id);
  return own !== undefined && sameGradedContent(own, task);
};

type ListedTaskVersion = Pick<TaskVersion, "version" | "note">;

function uncompared(file: TrajectoryFile, dataDir: string | null): ListedTaskVersion {
  const { version, note } = detectTaskVersion(file, dataDir);
  return { version, note };
}

/**
 * The TASKS column: `detectTaskVersion`'s version and note, without validating every task set. The
 * listing names only the winning set (the smallest that equals every embedded task; the first in
 * `listTaskSets` order among equal sizes), not every match, so sets are compared smallest first and a
 * larger one is only counted: telecom's 2,285-task head set is not validated when its 20-task
 * `tasks_small` already matches. A set that is never compared is therefore never schema-checked.
 */
export function listedTaskVersion(file: TrajectoryFile, dataDir: string | null): ListedTaskVersion {
  const { tasks } = file;
  const domain = file.info.domain;
  // Nothing to compare (a v1 file; no tasks, data dir, domain or task set): detectTaskVersion says
  // why, loading no task set.
  if (file.variant === "tau-bench-v1" || tasks === null || tasks.length === 0)
    return uncompared(file, dataDir);
  const refs = dataDir === null || domain === null ? [] : listTaskSets(dataDir, domain);
  if (refs.length === 0) return uncompared(file, dataDir);
  const bySize = refs.map((ref) => ({ ref, size: setSize(ref) })).sort((a, b) => a.size - b.size);
  const best = bySize.find(({ ref }) => {
    const set = validatedSet(ref);
    return tasks.every((t) => equalsSetTask(set, t));
  });
  if (best !== undefined) return { version: best.ref.name, note: null };
  // Nothing matches (every set is loaded by now): the closest is the first with the fewest differing tasks.
  const scored = refs.map((ref) => {
    const set = validatedSet(ref);
    return { name: ref.name, differing: tasks.filter((t) => !equalsSetTask(set, t)).length };
  });
  const closest = scored.reduce((a, b) => (b.differing < a.differing ? b : a));
  return {
    version: "unknown",
    note: `closest: ${closest.name} (${closest.differing} of ${tasks.length} tasks differ)`,
  };
}

function describeTrajectories(file: TrajectoryFile, dataDir: string | null): InspectedFile {
  const perTask = new Map<string, number>();
  for (const s of file.simulations) perTask.set(s.task_id, (perTask.get(s.task_id) ?? 0) + 1);
  const passes = file.simulations.filter(
    (s) => s.reward_info?.reward != null && Math.abs(s.reward_info.reward - 1) <= PASS_TOLERANCE,
  ).length;
  const version = listedTaskVersion(file, dataDir);
  return {
    ...EMPTY,
    path: file.path,
    variant: file.variant,
    domain: file.info.domain,
    agent_model: file.info.agent_model,
    user_model: file.info.user_model,
    task_version: version.version,
    simulations: file.simulations.length,
    trials: Math.max(0, ...perTask.values()),
    with_reward_info: file.simulations.filter((s) => s.reward_info !== null).length,
    recorded_pass_rate: file.simulations.length === 0 ? null : passes / file.simulations.length,
    rejected: file.rejected.length,
    rejections: file.rejected,
    note: version.note,
  };
}

/** The error without the file name when it is about the file itself (a data-dir task file can fail too). */
function errorText(err: FormatError, path: string): string {
  const where = err.path === "$" ? "" : `at ${err.path}: `;
  return `${err.file === path ? "" : `${err.file}: `}${where}${err.reason}`;
}

export function inspectFile(path: string, dataDir: string | null): InspectedFile {
  try {
    const loaded = loadJsonFile(path);
    if (loaded.variant === "not-trajectories") {
      return { ...EMPTY, path, variant: "not-trajectories", note: loaded.reason };
    }
    return describeTrajectories(loaded, dataDir);
  } catch (err) {
    if (err instanceof FormatError) return { ...EMPTY, path, error: errorText(err, path) };
    throw err;
  }
}

export function inspectCorpus(paths: readonly string[], options: { dataDir: string | null }): InspectReport {
  const { files, missing } = listJsonFiles(paths);
  const inspected = [
    ...missing.map((path) => ({ ...EMPTY, path, error: "no such file or directory" })),
    ...files.map((f) => inspectFile(f, options.dataDir)),
  ];
  const trajectoryFiles = inspected.filter((f) => f.error === null && f.variant !== "not-trajectories");
  return {
    files: inspected,
    totals: {
      files: inspected.length,
      trajectory_files: trajectoryFiles.length,
      simulations: trajectoryFiles.reduce((n, f) => n + f.simulations, 0),
      failed_files: inspected.filter((f) => f.error !== null).length,
    },
  };
}
