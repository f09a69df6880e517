/**
 * Runs one probe kind over one task set and grades it the way `tau-rescore grade` grades its results
 * file: the simulations go through the loader's own schema as the records `loadJsonFile` would read,
 * and `gradeFile` grades them with the setup's graders, those of a grading spec (`grading.ts`). No text
 * is written or parsed (a test checks that grading the written file gives the same verdicts). No NL
 * judge: an NL assertion in the basis leaves τ³ unknown rather than guessed.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DOMAINS } from "../domains/registry.ts";
import { loadJsonFile } from "../formats/load.ts";
import type { Task, TrajectoryFile } from "../formats/model.ts";
import { parseRunInfo } from "../formats/run-info.ts";
import { validateSimulations } from "../formats/simulation.ts";
import { detectTaskVersion, type TaskVersion } from "../formats/task-version.ts";
import { loadTaskFile, type TaskSetRef } from "../formats/tasks.ts";
import { TAU2_TYPED_KEYS } from "../formats/typed-arguments.ts";
import type { LoadedGraders, Verdicts } from "../graders/registry.ts";
import type { ClauseSet } from "../graders/structured/clauses/load.ts";
import type { RequirementSet } from "../graders/structured/requirements/load.ts";
import { noJudge } from "../graders/tau3/nl.ts";
import type { ContextPool } from "../pipeline/contexts.ts";
import { gradeFile } from "../pipeline/grade.ts";
import { PyFloat } from "../py/value.ts";
import { keyedCache } from "../util/keyed-cache.ts";
import type { ProbeEnv, ProbeKind, ProbeNote } from "./kind.ts";
import { loadPolicy } from "./policy.ts";
import {
  buildProbeFile,
  buildProbeSimulations,
  type ProbeSimulations,
  probeRunInfo,
} from "./results-file.ts";

export interface ProbeVerdict {
  readonly task_id: string;
  readonly note: ProbeNote | null;
  /** Each grader's verdict, by grader id (none when grading aborted). */
  readonly verdicts: Verdicts;
  readonly error: string | null;
}

export interface ProbeRun {
  readonly verdicts: readonly ProbeVerdict[];
  readonly skipped: readonly { readonly task_id: string; readonly reason: string }[];
}

export interface ProbeSetup {
  readonly dataDir: string;
  readonly pool: ContextPool;
  /** Requirement fixtures the probe kinds cite (a grader loads its own from its spec). */
  readonly requirements: RequirementSet;
  /** Domain policy clauses, read so their problems can be told (a grader loads its own from its spec). */
  readonly clauses: ClauseSet | null;
  /** A grading spec's graders, loaded (`loadGrading`): they grade every probe. */
  readonly graders: LoadedGraders;
}

/** What every probe of one task set reads: its grading context, policy and requirement fixtures. */
const probeEnvs = keyedCache<ProbeSetup, string, ProbeEnv>();

export const probeEnvFor = (setup: ProbeSetup, set: TaskSetRef): ProbeEnv =>
  probeEnvs(setup, set.path, () => {
    const def = DOMAINS[set.domain as keyof typeof DOMAINS];
    if (def === undefined) throw new Error(`domain ${set.domain} is not supported`);
    return {
      ctx: setup.pool.get(def),
      domain: def.name,
      taskVersion: set.name,
      policy: loadPolicy(setup.dataDir, def.name),
      requirements: setup.requirements,
    };
  });

/** Builds the probe file text for one task set (what `tau-rescore probe --out` writes). */
export function probeFileFor(setup: ProbeSetup, set: TaskSetRef, kind: ProbeKind) {
  return buildProbeFile(probeEnvFor(setup, set), set, kind, setup.dataDir);
}

/** A task set's tasks and detected version, read once per context pool (every kind probes them). */
export interface LoadedTaskSet {
  readonly set: TaskSetRef;
  readonly tasks: readonly Task[];
  readonly version: TaskVersion;
}

const loadedSets = keyedCache<ContextPool, string, LoadedTaskSet>();

export const loadProbedSet = (setup: ProbeSetup, set: TaskSetRef): LoadedTaskSet =>
  loadedSets(setup.pool, set.path, () => {
    const tasks = loadTaskFile(set.path);
    // The version a probe file embedding these tasks is detected as (no simulation takes part in it).
    return { set, tasks, version: detectTaskVersion(probeFileOf(set, "gold", tasks), setup.dataDir) };
  });

/** A probe results file as `loadJsonFile` gives it back. */
const probeFileOf = (
  set: TaskSetRef,
  kind: ProbeKind,
  tasks: readonly Task[],
  validated: Pick<TrajectoryFile, "simulations" | "rejected"> = { simulations: [], rejected: [] },
): TrajectoryFile => ({
  path: `probe:${kind}:${set.domain}:${set.name}`,
  variant: "tau2-results",
  info: parseRunInfo(set.path, asLoaded(probeRunInfo(kind, set.domain))),
  tasks,
  ...validated,
});

/**
 * A value as the loader reads it back from its file: outside `arguments` and `initialization_data`
 * numbers are plain (`JSON.parse`), inside them Python floats stay floats (the typed parser).
 */
function asLoaded(v: unknown, typed = false): unknown {
  if (v instanceof PyFloat) return typed ? v : v.v;
  if (v === null || typeof v !== "object") return v;
  // Copies only what changes: the schema copies the rest, as it copies what JSON.parse gives it.
  if (Array.isArray(v)) {
    let out: unknown[] | null = null;
    v.forEach((x, i) => {
      const y = asLoaded(x, typed);
      if (y === x) return;
      out ??= [...v];
      out[i] = y;
    });
    return out ?? v;
  }
  let out: Record<string, unknown> | null = null;
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) {
      out ??= { ...v };
      delete out[k]; // a written file has no such key
      continue;
    }
    const y = asLoaded(x, typed || TAU2_TYPED_KEYS.includes(k));
    if (y === x) continue;
    out ??= { ...v };
    out[k] = y;
  }
  return out ?? v;
}

/** The probe simulations as `loadJsonFile` loads their results file, tasks included. */
export const probeTrajectoryFile = (sims: ProbeSimulations, loaded: LoadedTaskSet): TrajectoryFile =>
  probeFileOf(
    sims.set,
    sims.kind,
    loaded.tasks,
    validateSimulations(
      sims.simulations.map((s) => asLoaded(s)),
      "simulations",
    ),
  );

/** Grades loaded probe simulations (no judge). */
async function gradeLoaded(
  setup: ProbeSetup,
  loaded: TrajectoryFile,
  version: TaskVersion,
  notes: ReadonlyMap<string, ProbeNote>,
): Promise<ProbeVerdict[]> {
  if (loaded.rejected.length > 0)
    throw new Error(
      `probe simulation rejected at ${loaded.rejected[0]?.path}: ${loaded.rejected[0]?.reason}`,
    );
  const out: ProbeVerdict[] = [];
  for await (const g of gradeFile(loaded, version, setup.pool, {
    judge: noJudge,
    fallbackTaskVersion: version.version,
    graders: setup.graders,
  })) {
    const taskId = g.row.task_id ?? g.sim?.task_id ?? "?";
    out.push({
      task_id: taskId,
      note: notes.get(taskId) ?? null,
      verdicts: g.verdicts,
      error: g.row.error ?? null,
    });
  }
  return out;
}

/** Builds and grades one probe kind over `tasks` (by default the whole set), in memory. */
export async function runProbe(
  setup: ProbeSetup,
  set: TaskSetRef,
  kind: ProbeKind,
  tasks?: readonly Task[],
): Promise<ProbeRun> {
  const loaded = loadProbedSet(setup, set);
  const sims = buildProbeSimulations(probeEnvFor(setup, set), set, kind, tasks ?? loaded.tasks);
  if (sims.notes.size === 0) return { verdicts: [], skipped: sims.skipped };
  const file = probeTrajectoryFile(sims, loaded);
  return { verdicts: await gradeLoaded(setup, file, loaded.version, sims.notes), skipped: sims.skipped };
}

/** Grades a probe results file already on disk (what `tau-rescore grade` would read). */
export async function gradeProbeFile(
  setup: ProbeSetup,
  path: string,
  notes: ReadonlyMap<string, ProbeNote> = new Map(),
): Promise<ProbeVerdict[]> {
  const loaded = loadJsonFile(path);
  if (loaded.variant === "not-trajectories") throw new Error(`${path}: ${loaded.reason}`);
  return gradeLoaded(setup, loaded, detectTaskVersion(loaded, setup.dataDir), notes);
}

/** Builds, writes, reloads and grades one probe kind over one task set: the file path, for tests. */
export async function runProbeThroughFile(
  setup: ProbeSetup,
  set: TaskSetRef,
  kind: ProbeKind,
): Promise<ProbeRun> {
  const file = probeFileFor(setup, set, kind);
  if (file.notes.size === 0) return { verdicts: [], skipped: file.skipped };
  const dir = mkdtempSync(join(tmpdir(), "tau-rescore-probe-"));
  try {
    const path = join(dir, "probe.json");
    writeFileSync(path, file.text);
    return { verdicts: await gradeProbeFile(setup, path, file.notes), skipped: file.skipped };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
