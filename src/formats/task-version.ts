/**
 * Which task set of a tau2 data dir a results file was run on, found by comparing the tasks embedded in
 * the file with each task set of its domain, task by task (by id).
 *
 * Compared per task: the user instructions, the gold actions (name, requestor, arguments with Python
 * types, compare_args), nl_assertions, communicate_info and reward_basis (the v0 default applied when
 * absent); a null list equals an empty one. Other fields (persona, descriptions, initial state) are not
 * compared.
 *
 * Tie rule: when all embedded tasks equal more than one set, the smallest set wins (the most specific
 * one that explains every task), then the first in `listTaskSets` order: `head`, `head/tasks_small`,
 * then versions newest name first. So a superset added later (telecom's full 2,285-task `tasks.json`,
 * which repeats the 20 of `tasks_small` and the 114 of v0.x) never relabels the files run on the
 * smaller set, and equal-sized sets (airline HEAD and v0.x) keep preferring `head`. Every matching set
 * is returned in `matches`, in that order, so callers can say "also equals v0.2.0_f8de30c".
 */
import { resolve } from "node:path";
import { type PyValue, sameCanonical } from "../py/value.ts";
import type { Task, TrajectoryFile } from "./model.ts";
import { listTaskSets, loadTaskFile, type TaskSetRef } from "./tasks.ts";

export interface TaskVersion {
  /** A task-set name (`head`, `head/tasks_small`, `v0.2.0_f8de30c`, ...), or `unknown`, `none`, `tau-bench-v1`. */
  readonly version: string;
  /** Every task set all embedded tasks equal, in preference order. */
  readonly matches: readonly string[];
  /** Why the version is `unknown` or `none`, or which set came closest. */
  readonly note: string | null;
}

/** The grading-relevant part of a task, compared as Python would compare its JSON dump. */
function gradedContent(task: Task): PyValue {
  const criteria = task.evaluation_criteria;
  return {
    instructions: task.user_scenario.instructions as unknown as PyValue,
    actions: (criteria?.actions ?? []).map((a) => ({
      name: a.name,
      requestor: a.requestor,
      arguments: a.arguments,
      compare_args: a.compare_args === null ? null : [...a.compare_args],
    })),
    nl_assertions: [...(criteria?.nl_assertions ?? [])],
    communicate_info: [...(criteria?.communicate_info ?? [])],
    reward_basis: criteria === null ? null : [...criteria.reward_basis],
  } as PyValue;
}

/** Do two tasks grade alike (the fields this module compares)? Structural: no text is built. */
export const sameGradedContent = (a: Task, b: Task): boolean =>
  sameCanonical(gradedContent(a), gradedContent(b));

interface LoadedTaskSet {
  readonly name: string;
  readonly contents: ReadonlyMap<string, PyValue>;
}

/** Task sets per `dataDir` + domain; loading the large telecom and banking files once is enough. */
const taskSetCache = new Map<string, LoadedTaskSet[]>();

export function loadTaskSets(dataDir: string, domain: string): LoadedTaskSet[] {
  const key = `${resolve(dataDir)}\0${domain}`;
  let sets = taskSetCache.get(key);
  if (sets === undefined) {
    sets = listTaskSets(dataDir, domain).map((ref: TaskSetRef) => ({
      name: ref.name,
      contents: new Map(loadTaskFile(ref.path).map((t) => [t.id, gradedContent(t)])),
    }));
    taskSetCache.set(key, sets);
  }
  return sets;
}

export function detectTaskVersion(file: TrajectoryFile, dataDir: string | null): TaskVersion {
  if (file.variant === "tau-bench-v1") return { version: "tau-bench-v1", matches: [], note: null };
  if (file.tasks === null || file.tasks.length === 0) {
    return { version: "none", matches: [], note: "the file embeds no tasks" };
  }
  if (dataDir === null) return { version: "unknown", matches: [], note: "no tau2 data dir given" };
  const domain = file.info.domain;
  if (domain === null) return { version: "unknown", matches: [], note: "domain unknown" };
  const sets = loadTaskSets(dataDir, domain);
  if (sets.length === 0)
    return { version: "unknown", matches: [], note: `no task sets for domain ${domain}` };

  const embedded = file.tasks.map((t) => [t.id, gradedContent(t)] as const);
  const equal = ([id, content]: (typeof embedded)[number], set: LoadedTaskSet) =>
    sameCanonical(set.contents.get(id), content);
  // A set matches when every task equals: its first differing task settles that.
  // Array.prototype.sort is stable: equal sizes keep the listTaskSets order.
  const matches = sets
    .filter((set) => embedded.every((e) => equal(e, set)))
    .sort((a, b) => a.contents.size - b.contents.size)
    .map((s) => s.name);
  const best = matches[0];
  if (best !== undefined) return { version: best, matches, note: null };
  // Nothing matches: count every set's differing tasks, to name the closest.
  const scored = sets.map((set) => ({
    name: set.name,
    differing: embedded.filter((e) => !equal(e, set)).length,
  }));
  const closest = scored.reduce((a, b) => (b.differing < a.differing ? b : a));
  return {
    version: "unknown",
    matches: [],
    note: `closest: ${closest.name} (${closest.differing} of ${embedded.length} tasks differ)`,
  };
}
