/**
 * Which DB records a task leaves alone: never named anywhere in the task (instructions, initial
 * state, gold actions) and outside the gold's footprint. A probe that writes such a record adds a
 * change no reading of the task can justify.
 */
import type { DbState } from "../domains/db-state.ts";
import type { Task } from "../formats/model.ts";
import type { GradingContext } from "../graders/context.ts";
import { diffStates } from "../graders/structured/field-diff.ts";
import type { PyDict, PyValue } from "../py/value.ts";
import { isPyDict } from "../py/value.ts";
import { keyedCache } from "../util/keyed-cache.ts";

export interface TaskFootprint {
  /** The state the probe starts from (setup plus message history). */
  readonly initial: DbState;
  /** Whether an id occurs anywhere in the task's text. */
  mentions(id: string): boolean;
  /** Whether the gold changes any field at or below this record path. */
  touches(recordPath: string): boolean;
}

/** Footprints per context and task: two probe kinds read each one. */
const footprints = keyedCache<GradingContext, Task, TaskFootprint>(() => new WeakMap());

export const taskFootprint = (ctx: GradingContext, task: Task): TaskFootprint =>
  footprints(ctx, task, () => computeFootprint(ctx, task));

function computeFootprint(ctx: GradingContext, task: Task): TaskFootprint {
  // The synced gold, as the delta gate sees it: sync-written fields count as touched too.
  const { gold } = ctx.taskArtifacts(task, true);
  const text = JSON.stringify(task);
  const paths = diffStates(gold.initial.agent, gold.env.agent).map((d) => d.path);
  return {
    initial: gold.initial.agent,
    mentions: (id) => text.includes(id),
    touches: (record) =>
      paths.some((p) => p === record || p.startsWith(`${record}.`) || p.startsWith(`${record}[`)),
  };
}

const IDENT = /^[A-Za-z0-9_-]+$/;

/** A record's path in the delta gate's notation (`orders["#W1"]`, `reservations.4WQ150`, `lines[0]`). */
export function recordPath(field: string, key: string | number): string {
  if (typeof key === "number") return `${field}[${key}]`;
  return IDENT.test(key) ? `${field}.${key}` : `${field}[${JSON.stringify(key)}]`;
}

/** A record's field as a string ("" when absent or not a string): DB records are untyped PyDicts here. */
export const textField = (record: PyValue | undefined, key: string): string => {
  const v = isPyDict(record) ? record[key] : undefined;
  return typeof v === "string" ? v : "";
};

export const dictField = (record: PyValue | undefined, key: string): PyDict | null => {
  const v = isPyDict(record) ? record[key] : undefined;
  return isPyDict(v) ? v : null;
};

export const listField = (record: PyValue | undefined, key: string): PyValue[] => {
  const v = isPyDict(record) ? record[key] : undefined;
  return Array.isArray(v) ? v : [];
};
