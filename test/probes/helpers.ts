/** One probe setup per test file, and the task sets the acceptance checks walk. */

import { DOMAINS } from "../../src/domains/registry.ts";
import { listTaskSets, loadTaskFile, type TaskSetRef } from "../../src/formats/tasks.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import { probeGradingSpec, probeSetup } from "../../src/probes/grading.ts";
import type { ProbeKind } from "../../src/probes/kind.ts";
import { type ProbeRun, type ProbeSetup, runProbe } from "../../src/probes/verdicts.ts";
import { DATA_DIR } from "../helpers/data.ts";

const dirs = { requirementsDir: BUILTIN_REQUIREMENTS_DIR, policiesDir: BUILTIN_POLICIES_DIR };

export const setup: ProbeSetup = await probeSetup(DATA_DIR, dirs, probeGradingSpec(dirs));

export const ctxOf = (domain: keyof typeof DOMAINS) => setup.pool.get(DOMAINS[domain]);

export function taskSets(domain: keyof typeof DOMAINS): TaskSetRef[] {
  return listTaskSets(DATA_DIR, domain);
}

export function taskSet(domain: keyof typeof DOMAINS, name: string): TaskSetRef {
  const set = taskSets(domain).find((s) => s.name === name);
  if (set === undefined) throw new Error(`no task set ${name} for ${domain}`);
  return set;
}

export const tasksOf = (set: TaskSetRef) => new Map(loadTaskFile(set.path).map((t) => [t.id, t]));

const runs = new Map<string, Promise<ProbeRun>>();
export function probe(set: TaskSetRef, kind: ProbeKind): Promise<ProbeRun> {
  const key = `${set.path}\0${kind}`;
  let hit = runs.get(key);
  if (hit === undefined) {
    hit = runProbe(setup, set, kind);
    runs.set(key, hit);
  }
  return hit;
}

/** Every (domain, task set) of the data dir that the census covers. */
export const ALL_SETS: readonly TaskSetRef[] = (Object.keys(DOMAINS) as (keyof typeof DOMAINS)[]).flatMap(
  (d) => taskSets(d),
);
