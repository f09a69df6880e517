/**
 * `corpus inspect` as a library call: lists the `.json` files under the given paths and describes each
 * one (variant, run info, task version, counts, recorded pass rate). A file that fails is reported with
 * its reason; the others still run.
 */
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { FormatError } from "./errors.ts";
import { loadJsonFile } from "./load.ts";
import type { FormatVariant, TrajectoryFile } from "./model.ts";
import { configurationOf } from "./run-info.ts";
import { listedTaskVersion } from "./task-version.ts";

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
  /** The run configuration its simulations share (`configurationOf`); null when the file does not record one. */
  readonly configuration: string | null;
  /** Tasks the file ran more than once. */
  readonly repeated_tasks: number;
  readonly with_reward_info: number;
  /** Share of simulations whose recorded reward is 1.0; null without simulations. */
  readonly recorded_pass_rate: number | null;
  /** Simulations that failed validation (each is listed in `rejections`). */
  readonly rejected: number;
  readonly rejections: TrajectoryFile["rejected"];
  /** The task ids of the file's simulations (for grouping per-simulation files into a run). */
  readonly task_ids: readonly string[];
  /** Why the task version is unknown/none, or why the file holds no trajectories. */
  readonly note: string | null;
  readonly error: string | null;
  /** Of the distinct tasks the file ran, how many a requirement fixture applies to; null when not counted. */
  readonly fixtures: TaskFixtureCount | null;
}

export interface TaskFixtureCount {
  readonly tasks: number;
  readonly with_fixture: number;
}

export interface InspectOptions {
  readonly dataDir: string | null;
  /** Counts the tasks of a file a requirement fixture applies to (the structured grader's lookup). */
  readonly countFixtures?: (file: TrajectoryFile) => TaskFixtureCount | null;
}

/**
 * A folder of per-simulation files read as one run: every trajectory file in it holds one simulation,
 * and all share their run metadata (domain, models, task version).
 */
export interface InspectedRun
  extends Pick<
    InspectedFile,
    "domain" | "agent_model" | "user_model" | "task_version" | "simulations" | "trials" | "recorded_pass_rate"
  > {
  readonly folder: string;
  readonly files: number;
  readonly variant: FormatVariant;
}

export interface InspectReport {
  readonly files: InspectedFile[];
  readonly runs: InspectedRun[];
  readonly totals: {
    readonly files: number;
    readonly trajectory_files: number;
    readonly simulations: number;
    readonly failed_files: number;
  };
}

const EMPTY: Omit<InspectedFile, "path"> = {
  fixtures: null,
  variant: null,
  domain: null,
  agent_model: null,
  user_model: null,
  task_version: null,
  simulations: 0,
  trials: 0,
  configuration: null,
  repeated_tasks: 0,
  with_reward_info: 0,
  recorded_pass_rate: null,
  rejected: 0,
  rejections: [],
  task_ids: [],
  note: null,
  error: null,
};

/** Expands directories (recursively, sorted) to their `.json` and `.jsonl` files; a named file is kept as given. */
export function listJsonFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && /\.jsonl?$/i.test(entry.name)) files.push(full);
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

/**
 * The most times one task id occurs (0 for none). Counted in a loop: spreading every count into
 * `Math.max` overflows the stack past about 125,000 tasks.
 */
function mostTrialsOfOneTask(taskIds: Iterable<string>): number {
  const perTask = new Map<string, number>();
  let most = 0;
  for (const id of taskIds) {
    const n = (perTask.get(id) ?? 0) + 1;
    perTask.set(id, n);
    if (n > most) most = n;
  }
  return most;
}

/** How many task ids occur more than once. */
function repeatedTasks(taskIds: Iterable<string>): number {
  const perTask = new Map<string, number>();
  for (const id of taskIds) perTask.set(id, (perTask.get(id) ?? 0) + 1);
  let repeated = 0;
  for (const n of perTask.values()) if (n > 1) repeated++;
  return repeated;
}

/**
 * The run configurations of the files (a file without one is its own): how many files and tasks each
 * has, and how many of its tasks ran more than once, within a file or across its files.
 */
export function configurationRepeats(
  files: readonly InspectedFile[],
): { configuration: string; files: number; tasks: number; repeated_tasks: number }[] {
  const groups = new Map<string, InspectedFile[]>();
  for (const f of files) {
    const key = f.configuration ?? `file ${f.path}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [f]);
    else group.push(f);
  }
  return [...groups].map(([configuration, group]) => {
    const ids = group.flatMap((f) => f.task_ids);
    return {
      configuration,
      files: group.length,
      tasks: new Set(ids).size,
      repeated_tasks: repeatedTasks(ids),
    };
  });
}

function describeTrajectories(file: TrajectoryFile, options: InspectOptions): InspectedFile {
  const { dataDir } = options;
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
    trials: mostTrialsOfOneTask(file.simulations.map((s) => s.task_id)),
    configuration: configurationOf(file.info, file.info.domain, version.version),
    repeated_tasks: repeatedTasks(file.simulations.map((s) => s.task_id)),
    with_reward_info: file.simulations.filter((s) => s.reward_info !== null).length,
    recorded_pass_rate: file.simulations.length === 0 ? null : passes / file.simulations.length,
    rejected: file.rejected.length,
    rejections: file.rejected,
    task_ids: file.simulations.map((s) => s.task_id),
    note: version.note,
    fixtures: options.countFixtures?.(file) ?? null,
  };
}

/** The error without the file name when it is about the file itself (a data-dir task file can fail too). */
function errorText(err: FormatError, path: string): string {
  const where = err.path === "$" ? "" : `at ${err.path}: `;
  return `${err.file === path ? "" : `${err.file}: `}${where}${err.reason}`;
}

export function inspectFile(
  path: string,
  dataDir: string | null,
  countFixtures?: InspectOptions["countFixtures"],
): InspectedFile {
  try {
    const loaded = loadJsonFile(path);
    if (loaded.variant === "not-trajectories") {
      return { ...EMPTY, path, variant: "not-trajectories", note: loaded.reason };
    }
    return describeTrajectories(loaded, {
      dataDir,
      ...(countFixtures === undefined ? {} : { countFixtures }),
    });
  } catch (err) {
    if (err instanceof FormatError) return { ...EMPTY, path, error: errorText(err, path) };
    throw err;
  }
}

export function inspectCorpus(paths: readonly string[], options: InspectOptions): InspectReport {
  const { files, missing } = listJsonFiles(paths);
  const inspected = [
    ...missing.map((path) => ({ ...EMPTY, path, error: "no such file or directory" })),
    ...files.map((f) => inspectFile(f, options.dataDir, options.countFixtures)),
  ];
  const trajectoryFiles = inspected.filter((f) => f.error === null && f.variant !== "not-trajectories");
  return {
    files: inspected,
    runs: perSimulationRuns(trajectoryFiles),
    totals: {
      files: inspected.length,
      trajectory_files: trajectoryFiles.length,
      simulations: trajectoryFiles.reduce((n, f) => n + f.simulations, 0),
      failed_files: inspected.filter((f) => f.error !== null).length,
    },
  };
}

const runKey = (f: InspectedFile) =>
  JSON.stringify([f.variant, f.domain, f.agent_model, f.user_model, f.task_version]);

/**
 * Folders of two or more one-simulation trajectory files (and no other), all with the same run metadata.
 * Linear in the files: a folder may hold hundreds of thousands.
 */
export function perSimulationRuns(files: readonly InspectedFile[]): InspectedRun[] {
  const byFolder = new Map<string, InspectedFile[]>();
  for (const f of files) {
    const folder = dirname(f.path);
    const group = byFolder.get(folder);
    // Appended in place: a copy per file made a folder of n files cost n² (minutes for 100,000).
    if (group === undefined) byFolder.set(folder, [f]);
    else group.push(f);
  }
  const runs: InspectedRun[] = [];
  for (const [folder, group] of byFolder) {
    const first = group[0] as InspectedFile;
    if (group.length < 2 || group.some((f) => f.simulations + f.rejected !== 1)) continue;
    const key = runKey(first);
    if (group.some((f) => runKey(f) !== key)) continue;
    const graded = group.filter((f) => f.recorded_pass_rate !== null);
    const passes = graded.reduce((n, f) => n + (f.recorded_pass_rate as number) * f.simulations, 0);
    const simulations = group.reduce((n, f) => n + f.simulations, 0);
    runs.push({
      folder,
      files: group.length,
      variant: first.variant as FormatVariant,
      domain: first.domain,
      agent_model: first.agent_model,
      user_model: first.user_model,
      task_version: first.task_version,
      simulations,
      trials: mostTrialsOfOneTask(group.flatMap((f) => f.task_ids)),
      recorded_pass_rate: simulations === 0 ? null : Math.round(passes) / simulations,
    });
  }
  return runs;
}
