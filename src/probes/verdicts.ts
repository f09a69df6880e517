/**
 * Runs one probe kind over one task set and grades it the way `tau-rescore grade` would: the
 * results file is written, loaded back with `loadJsonFile`, and graded by `gradeFile` with both
 * graders. No NL judge: an NL assertion in the basis leaves τ³ unknown rather than guessed.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DOMAINS } from "../domains/registry.ts";
import { loadJsonFile } from "../formats/load.ts";
import { detectTaskVersion } from "../formats/task-version.ts";
import type { TaskSetRef } from "../formats/tasks.ts";
import type { ClauseSet } from "../graders/structured/clauses/load.ts";
import { DEFAULT_STRUCTURED_OPTIONS, type StructuredVerdict } from "../graders/structured/grade.ts";
import type { RequirementSet } from "../graders/structured/requirements/load.ts";
import type { Tau3Verdict } from "../graders/tau3/evaluate.ts";
import { noJudge } from "../graders/tau3/nl.ts";
import type { ContextPool } from "../pipeline/contexts.ts";
import { gradeFile } from "../pipeline/grade.ts";
import type { ProbeKind, ProbeNote } from "./kind.ts";
import { loadPolicy } from "./policy.ts";
import { buildProbeFile } from "./results-file.ts";

export interface ProbeVerdict {
  readonly task_id: string;
  readonly note: ProbeNote | null;
  readonly tau3: Tau3Verdict | null;
  readonly structured: StructuredVerdict | null;
  readonly error: string | null;
}

export interface ProbeRun {
  readonly verdicts: readonly ProbeVerdict[];
  readonly skipped: readonly { readonly task_id: string; readonly reason: string }[];
}

export interface ProbeSetup {
  readonly dataDir: string;
  readonly pool: ContextPool;
  readonly requirements: RequirementSet;
  /** Domain policy clauses (the structured grader applies them as in a run). */
  readonly clauses: ClauseSet | null;
}

/** Builds the probe file text for one task set (what `tau-rescore probe --out` writes). */
export function probeFileFor(setup: ProbeSetup, set: TaskSetRef, kind: ProbeKind) {
  const def = DOMAINS[set.domain as keyof typeof DOMAINS];
  if (def === undefined) throw new Error(`domain ${set.domain} is not supported`);
  const env = {
    ctx: setup.pool.get(def),
    domain: def.name,
    taskVersion: set.name,
    policy: loadPolicy(setup.dataDir, def.name),
    requirements: setup.requirements,
  };
  return buildProbeFile(env, set, kind, setup.dataDir);
}

/** Grades a probe results file already on disk. */
export async function gradeProbeFile(
  setup: ProbeSetup,
  path: string,
  notes: ReadonlyMap<string, ProbeNote> = new Map(),
): Promise<ProbeVerdict[]> {
  const loaded = loadJsonFile(path);
  if (loaded.variant === "not-trajectories") throw new Error(`${path}: ${loaded.reason}`);
  const version = detectTaskVersion(loaded, setup.dataDir);
  const out: ProbeVerdict[] = [];
  for await (const g of gradeFile(loaded, version, setup.pool, {
    judge: noJudge,
    fallbackTaskVersion: version.version,
    graders: {
      structured: { ...DEFAULT_STRUCTURED_OPTIONS, requirements: setup.requirements, clauses: setup.clauses },
    },
  })) {
    const taskId = g.row.task_id ?? g.sim?.task_id ?? "?";
    out.push({
      task_id: taskId,
      note: notes.get(taskId) ?? null,
      tau3: g.tau3,
      structured: g.verdicts.structured ?? null,
      error: g.row.error ?? null,
    });
  }
  return out;
}

/** Builds, writes, reloads and grades one probe kind over one task set. */
export async function runProbe(setup: ProbeSetup, set: TaskSetRef, kind: ProbeKind): Promise<ProbeRun> {
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
