/** Resolves a fixture's `domain/task_version` to the tasks of that version in a tau2 data dir. */
import type { Task } from "../../../formats/model.ts";
import { listTaskSets, loadTaskFile, type TaskSetRef } from "../../../formats/tasks.ts";

export interface LoadedTaskSet {
  readonly ref: TaskSetRef;
  readonly tasks: readonly Task[];
  readonly byId: ReadonlyMap<string, Task>;
}

/** Task sets read at most once per process: several commands and tests ask for the same files. */
const cache = new Map<string, LoadedTaskSet>();

function load(ref: TaskSetRef): LoadedTaskSet {
  let hit = cache.get(ref.path);
  if (hit === undefined) {
    const tasks = loadTaskFile(ref.path);
    hit = { ref, tasks, byId: new Map(tasks.map((t) => [t.id, t])) };
    cache.set(ref.path, hit);
  }
  return hit;
}

/** The domain's task sets named `version`, or all of them when `version` is undefined. */
export function taskSetsOf(dataDir: string, domain: string, version?: string): LoadedTaskSet[] {
  const refs = listTaskSets(dataDir, domain);
  const chosen = version === undefined ? refs : refs.filter((r) => r.name === version);
  return chosen.map(load);
}

/** One named task set, or null when the data dir has no such version of the domain. */
export function taskSet(dataDir: string, domain: string, version: string): LoadedTaskSet | null {
  return taskSetsOf(dataDir, domain, version)[0] ?? null;
}

export const taskSetNames = (dataDir: string, domain: string): string[] =>
  listTaskSets(dataDir, domain).map((r) => r.name);
