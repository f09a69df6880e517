/**
 * Grades every simulation of one loaded trajectory file with the selected graders. Nothing is
 * dropped: a simulation that cannot be graded yields a row with an `error` and the run goes on.
 */
import { domainByName } from "../domains/registry.ts";
import type { Simulation, Task, TrajectoryFile } from "../formats/model.ts";
import type { TaskVersion } from "../formats/task-version.ts";
import { listTaskSets, loadTaskFile } from "../formats/tasks.ts";
import { type CorrectedTask, correctTask } from "../graders/corrections/apply.ts";
import { evaluateNlCurated, type NlCuratedResult } from "../graders/corrections/nl-curated.ts";
import type { CorrectionsFile } from "../graders/corrections/schema.ts";
import {
  gradeStructured,
  type StructuredConfig,
  type StructuredVerdict,
} from "../graders/structured/grade.ts";
import { gradeTau3, type Tau3Verdict } from "../graders/tau3/evaluate.ts";
import type { NlJudge } from "../graders/tau3/nl.ts";
import type { ContextPool } from "./contexts.ts";
import {
  type StructuredJson,
  structuredJson,
  type Tau3CorrectedJson,
  type Tau3Json,
  tau3CorrectedJson,
  tau3Json,
} from "./rows.ts";

export interface GradeSettings {
  readonly judge: NlJudge;
  /** Task set for files that embed no tasks (tau2 would need them; we say which we assumed). */
  readonly fallbackTaskVersion: string;
  /** Correction overlays by domain; when given, rows also carry the corrected verdict. */
  readonly corrections?: ReadonlyMap<string, CorrectionsFile>;
  /** When given, the structured grader runs too. */
  readonly structured?: StructuredConfig;
}

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
  readonly tau3?: Tau3Json;
  /** The same grader over the corrections overlay (only with corrections on). */
  readonly tau3_corrected?: Tau3CorrectedJson;
  readonly structured?: StructuredJson;
  readonly error?: string;
}

/** What a grader needs beyond the row: the full τ³ verdict (evidence, replayed envs). */
export interface GradedSimulation {
  readonly row: SimulationRow;
  readonly sim: Simulation | null;
  readonly task: Task | null;
  readonly tau3: Tau3Verdict | null;
  readonly corrected?: {
    readonly task: CorrectedTask;
    readonly tau3: Tau3Verdict;
    readonly nlCurated: NlCuratedResult | null;
  };
  readonly structured?: StructuredVerdict;
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

const taskSetCache = new Map<string, Map<string, Task>>();

function dataDirTasks(dataDir: string, domain: string, version: string): Map<string, Task> | null {
  const ref = listTaskSets(dataDir, domain).find((s) => s.name === version);
  if (ref === undefined) return null;
  let hit = taskSetCache.get(ref.path);
  if (hit === undefined) {
    hit = new Map(loadTaskFile(ref.path).map((t) => [t.id, t]));
    taskSetCache.set(ref.path, hit);
  }
  return hit;
}

export async function* gradeFile(
  file: TrajectoryFile,
  version: TaskVersion,
  pool: ContextPool,
  settings: GradeSettings,
): AsyncGenerator<GradedSimulation> {
  const domainName = file.info.domain;
  let taskVersion = version.version;
  let fixtureVersions = version.matches.length > 0 ? version.matches : [version.version];
  let tasks: Map<string, Task> | null =
    file.tasks === null ? null : new Map(file.tasks.map((t) => [t.id, t]));
  if ((tasks === null || tasks.size === 0) && domainName !== null) {
    tasks = dataDirTasks(pool.dataDir, domainName, settings.fallbackTaskVersion);
    taskVersion = `${settings.fallbackTaskVersion} (assumed: the file embeds no tasks)`;
    fixtureVersions = [settings.fallbackTaskVersion];
  }
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
    };
  }
  const domain = domainName === null ? undefined : domainByName(domainName);
  for (const sim of file.simulations) {
    const row = {
      ...base,
      simulation_id: sim.id,
      task_id: sim.task_id,
      trial: sim.trial,
      termination_reason: sim.termination_reason,
      recorded_reward: sim.reward_info?.reward ?? null,
    };
    const fail = (error: string): GradedSimulation => ({
      row: { ...row, error },
      sim,
      task: null,
      tau3: null,
    });
    if (domain === undefined) {
      yield fail(
        domainName === null ? "the file's domain is unknown" : clip(`domain ${domainName} is not supported`),
      );
      continue;
    }
    const task = tasks?.get(sim.task_id);
    if (task === undefined) {
      yield fail(clip(`task ${sim.task_id} is not among the tasks of ${taskVersion}`));
      continue;
    }
    try {
      const needsNl = (task.evaluation_criteria?.nl_assertions?.length ?? 0) > 0;
      const nl = needsNl
        ? await settings.judge.judge(task, sim, task.evaluation_criteria?.nl_assertions ?? [])
        : null;
      const ctx = pool.get(domain);
      const solo = file.info.solo;
      const tau3 = gradeTau3(ctx, task, sim, { solo, nl });
      const overlay = settings.corrections?.get(domain.name);
      const fixed = overlay === undefined ? null : correctTask(task, version.version, overlay);
      const tau3c =
        fixed === null ? null : fixed.task === task ? tau3 : gradeTau3(ctx, fixed.task, sim, { solo, nl });
      const nlCurated =
        fixed?.curatedNl == null ? null : await evaluateNlCurated(settings.judge, task, sim, fixed.curatedNl);
      const structured =
        settings.structured === undefined
          ? undefined
          : gradeStructured({
              ctx,
              domain,
              task,
              taskVersions: fixtureVersions,
              sim,
              solo,
              tau3,
              nlCuratedScore: nlCurated?.score ?? null,
              config: settings.structured,
            });
      yield {
        row: {
          ...row,
          tau3: tau3Json(tau3),
          ...(fixed === null || tau3c === null
            ? {}
            : { tau3_corrected: tau3CorrectedJson(tau3c, fixed, nlCurated) }),
          ...(structured === undefined ? {} : { structured: structuredJson(structured) }),
        },
        sim,
        task,
        tau3,
        ...(fixed === null || tau3c === null ? {} : { corrected: { task: fixed, tau3: tau3c, nlCurated } }),
        ...(structured === undefined ? {} : { structured }),
      };
    } catch (e) {
      yield fail(abortReason(e));
    }
  }
}
