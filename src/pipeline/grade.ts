/**
 * Grades every simulation of one loaded trajectory file with the selected graders, in registry
 * order (each grader sees the verdicts of those before it). Nothing is dropped: a simulation that
 * cannot be graded yields a row with an `error` and the run goes on.
 */
import { canonicalDomainName } from "../formats/domains.ts";
import { unknownTaskFieldWarnings } from "../formats/file-warnings.ts";
import { loadJsonFile } from "../formats/load.ts";
import type { Simulation, Task, TrajectoryFile } from "../formats/model.ts";
import { readRegularFile } from "../formats/read-json.ts";
import { detectTaskVersion, type TaskVersion } from "../formats/task-version.ts";
import { listTaskSets, loadTaskFile, taskFileUnknownFields } from "../formats/tasks.ts";
import type { GraderInput, VerdictRecord } from "../graders/grader.ts";
import { checkedRecord, GraderModuleError, overdueMessage, thrownText } from "../graders/module-checks.ts";
import {
  GRADER_IDS,
  type GraderId,
  graderModuleLabel,
  graderOf,
  isBuiltInGraderId,
  type LoadedGraders,
  type Verdicts,
} from "../graders/registry.ts";
import type { Tau3Verdict } from "../graders/tau3/evaluate.ts";
import { assertionsToJudge, type JudgeRequest, type NlJudge } from "../graders/tau3/nl.ts";
import type { ContextPool } from "./contexts.ts";
import { fileDomain } from "./domains.ts";

export interface GradeSettings {
  readonly judge: NlJudge;
  /** Task set for files that embed no tasks (tau2 would need them; we say which we assumed). */
  readonly fallbackTaskVersion: string;
  /** The graders beyond τ³, loaded (`loadGrading`); τ³ always runs, every other grader builds on it. */
  readonly graders?: LoadedGraders;
  /** Domain names graded as a base domain (`domain_as`, `--domain-as`), besides the data dir's variants. */
  readonly domainAs?: Readonly<Record<string, string>>;
  /**
   * Seconds a grader module may take on one simulation when it grades in this thread (beside a live
   * judge, or a TypeScript module threads cannot load). Grading threads are timed by the main thread
   * instead (`parallel.ts`): a module looping in a thread would stop that thread's own timers too.
   */
  readonly graderModuleTimeoutSeconds?: number;
}

/** Told when a grader module starts (`running`) and ends grading the file's `simulation`-th simulation. */
export type ModuleGraderWatch = (simulation: number, grader: GraderId, running: boolean) => void;

/** How one file is graded beyond the run's settings, when a grading thread grades it for a watchdog. */
export interface FileGrading {
  /** Simulations (by index) a grader module gave no verdict on in an earlier attempt: their error rows. */
  readonly overdue?: ReadonlyMap<number, string>;
  readonly watch?: ModuleGraderWatch;
  /** Told once per task file about the fields of a data dir's task set the tool does not understand. */
  readonly warn?: (line: string) => void;
}

/** What the store and the JSON lines say about a simulation besides its verdicts. */
export interface SimulationRow {
  readonly file: string;
  readonly simulation_id: string | null;
  readonly task_id: string | null;
  readonly trial: number | null;
  readonly domain: string | null;
  readonly task_version: string;
  readonly agent_model: string | null;
  readonly user_model: string | null;
  readonly termination_reason: string | null;
  readonly recorded_reward: number | null;
  readonly error?: string;
}

export interface GradedSimulation {
  readonly row: SimulationRow;
  readonly sim: Simulation | null;
  readonly task: Task | null;
  /** τ³'s verdict, which every other grader builds on (also in `verdicts`). */
  readonly tau3: Tau3Verdict | null;
  readonly verdicts: Verdicts;
  /** The records of the grader modules' verdicts, checked: the store takes these, not `record` again. */
  readonly records?: Readonly<Partial<Record<GraderId, VerdictRecord>>>;
}

/** The simulation as one JSON line: its row and each verdict's JSON under the grader's id. */
export function jsonLine(g: GradedSimulation): Record<string, unknown> {
  const line: Record<string, unknown> = { ...g.row };
  for (const id of GRADER_IDS) {
    const v = g.verdicts[id];
    if (v !== undefined) line[id] = graderOf(id).json(v);
  }
  return line;
}

/** JavaScript's own error classes: thrown by a bug in this port, never on purpose. */
const JS_FAULTS: readonly (new () => Error)[] = [
  TypeError,
  RangeError,
  ReferenceError,
  SyntaxError,
  EvalError,
  URIError,
];

/** Error texts go into one table cell; an untrusted 10 MB id must not be echoed whole. */
const MAX_REASON = 2000;
const clip = (text: string): string =>
  text.length <= MAX_REASON ? text : `${text.slice(0, MAX_REASON - 1)}…`;

/**
 * The row's reason when grading throws. A JS fault is labelled as one, so a bug in the port is never
 * mistaken for (or counted like) a trajectory that tau2 itself would refuse to grade.
 */
export function abortReason(e: unknown): string {
  if (e instanceof Error && JS_FAULTS.some((c) => e.constructor === c))
    return clip(
      `internal fault while grading (a tau-rescore bug, not the trajectory's): ${e.name}: ${e.message}`,
    );
  return clip(`grading aborted: ${e instanceof Error ? e.message : String(e)}`);
}

/** A data dir's task set, and the warnings about its fields the tool does not understand until said once. */
interface DataDirTaskSet {
  readonly tasks: Map<string, Task>;
  readonly unsaid: string[];
}

const taskSetCache = new Map<string, DataDirTaskSet>();

function dataDirTasks(dataDir: string, domain: string, version: string): DataDirTaskSet | null {
  const ref = listTaskSets(dataDir, domain).find((s) => s.name === version);
  if (ref === undefined) return null;
  let hit = taskSetCache.get(ref.path);
  if (hit === undefined) {
    hit = {
      tasks: new Map(loadTaskFile(ref.path).map((t) => [t.id, t])),
      unsaid: taskFileUnknownFields(ref.path).flatMap((f) => unknownTaskFieldWarnings(f.fields, f.file)),
    };
    taskSetCache.set(ref.path, hit);
  }
  return hit;
}

/** Where a grader module grades: which simulation of the file, who times it, or its own time limit. */
interface ModuleGrading {
  readonly simulation: number;
  readonly watch: ModuleGraderWatch | undefined;
  readonly timeoutSeconds: number | undefined;
}

/**
 * A module's verdict, within the time limit when this thread keeps it (a timer can fire here). Any value
 * races the timer: a module may return a thenable of its own that never settles.
 */
function withinLimit(label: string, result: unknown, seconds: number | undefined): Promise<unknown> {
  if (seconds === undefined) return Promise.resolve(result);
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GraderModuleError(overdueMessage(label, seconds))), seconds * 1000);
  });
  return Promise.race([result, overdue]).finally(() => clearTimeout(timer));
}

/**
 * A grader module's verdict and its record, checked; null when it does not apply. Anything wrong is a
 * `GraderModuleError` naming the module: the simulation's error row.
 */
async function gradeWithModule(
  id: GraderId,
  input: GraderInput,
  loaded: unknown,
  prior: Verdicts,
  at: ModuleGrading,
): Promise<{ verdict: unknown; record: VerdictRecord } | null> {
  const g = graderOf(id);
  const label = graderModuleLabel(id);
  const failed = (what: string, e: unknown) =>
    e instanceof GraderModuleError ? e : new GraderModuleError(`${label}: ${what} failed: ${thrownText(e)}`);
  at.watch?.(at.simulation, id, true);
  try {
    let verdict: unknown;
    try {
      verdict = await withinLimit(label, g.grade(input, loaded, prior), at.timeoutSeconds);
    } catch (e) {
      throw failed("grade", e);
    }
    if (verdict === null) return null;
    if (verdict === undefined)
      throw new GraderModuleError(`${label}: grade returned undefined (null says the grader does not apply)`);
    try {
      return { verdict, record: checkedRecord(label, g.record(verdict)) };
    } catch (e) {
      throw failed("record", e);
    }
  } finally {
    at.watch?.(at.simulation, id, false);
  }
}

/** Runs τ³ and every loaded grader on one simulation, in registry order. */
async function gradeAll(
  input: GraderInput,
  graders: LoadedGraders,
  modules: ModuleGrading,
): Promise<Pick<GradedSimulation, "verdicts" | "records">> {
  const verdicts: Partial<Record<GraderId, unknown>> = {};
  let records: Partial<Record<GraderId, VerdictRecord>> | undefined;
  for (const id of GRADER_IDS) {
    const loaded = id === "tau3" ? null : graders[id];
    if (loaded === undefined) continue;
    if (!isBuiltInGraderId(id)) {
      const graded = await gradeWithModule(id, input, loaded, verdicts as Verdicts, modules);
      if (graded !== null) {
        verdicts[id] = graded.verdict;
        records = { ...records, [id]: graded.record };
      }
      continue;
    }
    const result = graderOf(id).grade(input, loaded, verdicts as Verdicts);
    const v = result instanceof Promise ? await result : result;
    if (v !== null) verdicts[id] = v;
  }
  return records === undefined
    ? { verdicts: verdicts as Verdicts }
    : { verdicts: verdicts as Verdicts, records };
}

/** The tasks a file's simulations are graded against: its own, or the fallback set's when it embeds none. */
function fileTasks(
  file: TrajectoryFile,
  version: TaskVersion,
  pool: ContextPool,
  settings: GradeSettings,
): {
  tasks: Map<string, Task> | null;
  taskVersion: string;
  taskVersions: readonly string[];
  /** The data dir's task set the tasks come from, when the file embeds none. */
  dataDirSet?: DataDirTaskSet;
} {
  const domainName = file.info.domain;
  const tasks = file.tasks === null ? null : new Map(file.tasks.map((t) => [t.id, t]));
  if ((tasks === null || tasks.size === 0) && domainName !== null) {
    const set = dataDirTasks(pool.dataDir, domainName, settings.fallbackTaskVersion);
    return {
      tasks: set?.tasks ?? null,
      taskVersion: `${settings.fallbackTaskVersion} (assumed: the file embeds no tasks)`,
      taskVersions: [settings.fallbackTaskVersion],
      ...(set === null ? {} : { dataDirSet: set }),
    };
  }
  return {
    tasks,
    taskVersion: version.version,
    taskVersions: version.matches.length > 0 ? version.matches : [version.version],
  };
}

function judgeRequestsOf(
  simulations: readonly Simulation[],
  tasks: ReadonlyMap<string, Task> | null,
  judge: NlJudge,
): JudgeRequest[] {
  const out: JudgeRequest[] = [];
  for (const sim of simulations) {
    const task = tasks?.get(sim.task_id);
    const assertions = task === undefined ? null : assertionsToJudge(judge, task, sim);
    if (task !== undefined && assertions !== null) out.push({ task, sim, assertions });
  }
  return out;
}

/** Files a live judge works ahead on (bounds the conversations held for requests in flight). */
export const JUDGE_FILES_AHEAD = 8;

/**
 * A live judge's look-ahead over a list of files: before file `current` is graded, `start` runs once
 * for each of the JUDGE_FILES_AHEAD files after it, so the judge's requests overlap across files (the
 * file being graded asks for its own, in `gradeFile`).
 */
export function judgeLookahead(count: number, start: (index: number) => void): (current: number) => void {
  let next = 1;
  return (current) => {
    for (; next < Math.min(count, current + 1 + JUDGE_FILES_AHEAD); next++) start(next);
  };
}

/**
 * Starts a live judge on the file at `path` ahead of grading it; `skip` may pass on its bytes (a file
 * already stored). Anything wrong with the file is left for grading to report.
 */
export function prefetchFileAt(
  path: string,
  pool: ContextPool,
  settings: GradeSettings,
  skip: (bytes: Buffer) => boolean = () => false,
): void {
  if (settings.judge.prefetch === undefined) return;
  try {
    const bytes = readRegularFile(path); // never opens a FIFO
    if (skip(bytes)) return;
    const file = loadJsonFile(path, bytes);
    if (file.variant === "not-trajectories" || file.info.domain === null) return;
    if (canonicalDomainName(file.info.domain) === undefined) return;
    const { tasks } = fileTasks(file, detectTaskVersion(file, pool.dataDir), pool, settings);
    settings.judge.prefetch(judgeRequestsOf(file.simulations, tasks, settings.judge));
  } catch {
    // reported when the file is graded
  }
}

/** A simulation that could not be graded: its row with the reason. */
const ungraded = (row: SimulationRow, sim: Simulation, error: string): GradedSimulation => ({
  row: { ...row, error },
  sim,
  task: null,
  tau3: null,
  verdicts: {},
});

export async function* gradeFile(
  file: TrajectoryFile,
  version: TaskVersion,
  pool: ContextPool,
  settings: GradeSettings,
  grading: FileGrading = {},
): AsyncGenerator<GradedSimulation> {
  const domainName = file.info.domain;
  // A variant is graded on its own overlay data dir: its tasks, policy and DB.
  const resolved = await fileDomain(domainName, pool, settings.domainAs);
  const filePool = resolved !== null && "def" in resolved ? resolved.pool : pool;
  // A variant's task sets are the ones of its overlay (a caller detects them on the data dir itself).
  const fileVersion = filePool === pool ? version : detectTaskVersion(file, filePool.dataDir);
  const { tasks, taskVersion, taskVersions, dataDirSet } = fileTasks(file, fileVersion, filePool, settings);
  // Said by the first file graded against the set (a prefetch may have loaded it).
  if (dataDirSet !== undefined && grading.warn !== undefined)
    for (const w of dataDirSet.unsaid.splice(0)) grading.warn(w);
  const base = {
    file: file.path,
    domain: domainName,
    task_version: taskVersion,
    agent_model: file.info.agent_model,
    user_model: file.info.user_model,
  };
  for (const r of file.rejected) {
    yield {
      row: {
        ...base,
        simulation_id: r.id,
        task_id: null,
        trial: null,
        termination_reason: null,
        recorded_reward: null,
        error: clip(`invalid simulation at ${r.path}: ${r.reason}`),
      },
      sim: null,
      task: null,
      tau3: null,
      verdicts: {},
    };
  }
  const domain = resolved !== null && "def" in resolved ? resolved.def : undefined;
  const graders = settings.graders ?? {};
  const recordWrites = GRADER_IDS.some((id) => graders[id] !== undefined && graderOf(id).readsWriteJournal);
  // A live judge is slow: ask about every simulation of the file at once (its limiter bounds it).
  if (domain !== undefined)
    settings.judge.prefetch?.(judgeRequestsOf(file.simulations, tasks, settings.judge));
  for (const [index, sim] of file.simulations.entries()) {
    const row = {
      ...base,
      simulation_id: sim.id,
      task_id: sim.task_id,
      trial: sim.trial,
      termination_reason: sim.termination_reason,
      recorded_reward: sim.reward_info?.reward ?? null,
    };
    if (domain === undefined) {
      yield ungraded(
        row,
        sim,
        domainName === null
          ? "the file's domain is unknown"
          : resolved !== null && "error" in resolved
            ? clip(resolved.error)
            : clip(
                `domain ${domainName} is not supported (a variant of a supported domain: declare it in the data dir's domains/${domainName}/variant.json, or map it with --domain-as ${domainName}=<domain>)`,
              ),
      );
      continue;
    }
    const task = tasks?.get(sim.task_id);
    if (task === undefined) {
      // Worded without the task's id (the row has it), so a cause common to the file is one line.
      const why =
        tasks === null
          ? `the data dir has no task set ${settings.fallbackTaskVersion} for domain ${domainName} (the file embeds no tasks; --fallback-task-version names the set)`
          : `the simulation's task is not among the tasks of ${taskVersion}`;
      yield ungraded(row, sim, clip(why));
      continue;
    }
    const overdue = grading.overdue?.get(index);
    if (overdue !== undefined) {
      yield ungraded(row, sim, overdue);
      continue;
    }
    try {
      const input: GraderInput = {
        ctx: filePool.get(domain),
        domain,
        task,
        sim,
        solo: file.info.solo,
        // Corrections are keyed by the matched task set (not the "assumed" label).
        taskVersion: fileVersion.version,
        taskVersions,
        judge: settings.judge,
        recordWrites,
      };
      const { verdicts, records } = await gradeAll(input, graders, {
        simulation: index,
        watch: grading.watch,
        timeoutSeconds: settings.graderModuleTimeoutSeconds,
      });
      yield records === undefined
        ? { row, sim, task, tau3: verdicts.tau3 ?? null, verdicts }
        : { row, sim, task, tau3: verdicts.tau3 ?? null, verdicts, records };
    } catch (e) {
      yield ungraded(row, sim, e instanceof GraderModuleError ? clip(e.message) : abortReason(e));
    }
  }
}
