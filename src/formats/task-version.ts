/**
 * Which task set of a tau2 data dir a results file was run on, found by comparing the tasks embedded in
 * the file with each task set of its domain, task by task (by id).
 *
 * Compared per task: the user instructions, the gold actions (name, requestor, arguments with Python
 * types, compare_args), nl_assertions, communicate_info and reward_basis (the v0 default applied when
 * absent), and a fork's acceptable outcomes where there are any; a null list equals an empty one. Other
 * fields (persona, descriptions, initial state) are not compared.
 *
 * Tie rule: when all embedded tasks equal more than one set, the smallest set wins (the most specific
 * one that explains every task), then the first in `listTaskSets` order: `head`, `head/tasks_small`,
 * then versions newest name first. So a superset added later (telecom's full 2,285-task `tasks.json`,
 * which repeats the 20 of `tasks_small` and the 114 of v0.x) never relabels the files run on the
 * smaller set, and equal-sized sets (airline HEAD and v0.x) keep preferring `head`. Every matching set
 * is returned in `matches`, in that order, so callers can say "also equals v0.2.0_f8de30c".
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { type PyValue, sameCanonical } from "../py/value.ts";
import { FormatError } from "./errors.ts";
import { isRecord } from "./loaders/raw.ts";
import type { Task, TrajectoryFile } from "./model.ts";
import { readJsonDocument } from "./read-json.ts";
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
    // Only where a task has them, so that every other task compares as it always did.
    ...(criteria?.acceptable_outcomes == null
      ? {}
      : { acceptable_outcomes: criteria.acceptable_outcomes as unknown as PyValue }),
  } as PyValue;
}

/** Do two tasks grade alike (the fields this module compares)? Structural: no text is built. */
export const sameGradedContent = (a: Task, b: Task): boolean =>
  sameCanonical(gradedContent(a), gradedContent(b));

/** Task sets per `dataDir` + domain (listing reads the versions folder). */
const setRefs = new Map<string, readonly TaskSetRef[]>();

function taskSetsOf(dataDir: string, domain: string): readonly TaskSetRef[] {
  const key = `${resolve(dataDir)}\0${domain}`;
  let refs = setRefs.get(key);
  if (refs === undefined) {
    refs = listTaskSets(dataDir, domain);
    setRefs.set(key, refs);
  }
  return refs;
}

/** A set's grading-relevant content by task id; loading the large telecom and banking sets once is enough. */
const setContents = new Map<string, ReadonlyMap<string, PyValue>>();

function contentsOf(ref: TaskSetRef): ReadonlyMap<string, PyValue> {
  const key = resolve(ref.path);
  let contents = setContents.get(key);
  if (contents === undefined) {
    contents = new Map(loadTaskFile(ref.path).map((t) => [t.id, gradedContent(t)]));
    setContents.set(key, contents);
  }
  return contents;
}

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

/** Distinct task ids per set path, for a search that may never load the set. */
const plainSizes = new Map<string, number>();

function unloadedSize(ref: TaskSetRef): number {
  const key = resolve(ref.path);
  let size = plainSizes.get(key);
  if (size === undefined) {
    size = plainSetSize(ref) ?? contentsOf(ref).size;
    plainSizes.set(key, size);
  }
  return size;
}

/**
 * `all`: every set is loaded and every match listed. `first`: sets are compared smallest first and the
 * search stops at the first that matches (a larger set is only counted, never loaded or schema-checked:
 * telecom's 2,285-task head set when its 20-task `tasks_small` already matches); `matches` then holds
 * only the winner.
 */
type Search = "all" | "first";

function decideVersion(file: TrajectoryFile, dataDir: string | null, search: Search): TaskVersion {
  if (file.variant === "tau-bench-v1") return { version: "tau-bench-v1", matches: [], note: null };
  if (file.tasks === null || file.tasks.length === 0) {
    return { version: "none", matches: [], note: "the file embeds no tasks" };
  }
  if (dataDir === null) return { version: "unknown", matches: [], note: "no tau2 data dir given" };
  const domain = file.info.domain;
  if (domain === null) return { version: "unknown", matches: [], note: "domain unknown" };
  const refs = taskSetsOf(dataDir, domain);
  if (refs.length === 0)
    return { version: "unknown", matches: [], note: `no task sets for domain ${domain}` };

  const embedded = file.tasks.map((t) => [t.id, gradedContent(t)] as const);
  const equal = ([id, content]: (typeof embedded)[number], ref: TaskSetRef) =>
    sameCanonical(contentsOf(ref).get(id), content);
  // A set matches when every task equals: its first differing task settles that.
  const matchesAll = (ref: TaskSetRef) => embedded.every((e) => equal(e, ref));
  const size = search === "all" ? (ref: TaskSetRef) => contentsOf(ref).size : unloadedSize;
  // Array.prototype.sort is stable: equal sizes keep the listTaskSets order.
  const sorted = refs
    .map((ref) => ({ ref, size: size(ref) }))
    .sort((a, b) => a.size - b.size)
    .map(({ ref }) => ref);
  const first = search === "first" ? sorted.find(matchesAll) : undefined;
  const matching = search === "all" ? sorted.filter(matchesAll) : first === undefined ? [] : [first];
  const matches = matching.map((ref) => ref.name);
  const best = matches[0];
  if (best !== undefined) return { version: best, matches, note: null };
  // Nothing matches: count every set's differing tasks, to name the closest.
  const scored = refs.map((ref) => ({
    name: ref.name,
    differing: embedded.filter((e) => !equal(e, ref)).length,
  }));
  const closest = scored.reduce((a, b) => (b.differing < a.differing ? b : a));
  return {
    version: "unknown",
    matches: [],
    note: `closest: ${closest.name} (${closest.differing} of ${embedded.length} tasks differ)`,
  };
}

export const detectTaskVersion = (file: TrajectoryFile, dataDir: string | null): TaskVersion =>
  decideVersion(file, dataDir, "all");

/**
 * The version and note `detectTaskVersion` gives, loading no set beyond the one that decides it (the
 * listing of `corpus inspect`). A set that is never compared is therefore never schema-checked.
 */
export function listedTaskVersion(
  file: TrajectoryFile,
  dataDir: string | null,
): Pick<TaskVersion, "version" | "note"> {
  const { version, note } = decideVersion(file, dataDir, "first");
  return { version, note };
}
