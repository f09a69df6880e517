/**
 * Evaluates conditions against a view of the DBs at one moment, with three values: true, false, and
 * null when a fact is missing (an absent field, a binding that found nothing). A missing fact never
 * proves a violation, and never licenses a write.
 */

import { isPyDict, numericValue, type PyDict, type PyValue, pyEquals } from "../../../py/value.ts";
import { valueIn } from "../../../replay/journal.ts";
import { keyedCache } from "../../../util/keyed-cache.ts";
import {
  type Binding,
  type Comparison,
  type Condition,
  type Operand,
  type Quantifier,
  readOperand,
} from "./schema.ts";

export type DbSide = "agent" | "user";
export type Tri = boolean | null;

/** The DBs as they were at one moment (before a call). */
export interface StateView {
  /** Every record of a table (dict values in key order, or list items); undefined: no such table. */
  records(db: DbSide, table: string): readonly PyValue[] | undefined;
  /**
   * The records of `records(db, table)` whose `field` holds the text `value`, in the same order;
   * undefined when the table is no dict (the caller then filters `records`).
   */
  recordsWhere(db: DbSide, table: string, field: string, value: string): readonly PyValue[] | undefined;
  /** A dict table's record by key, when the table is a dict (a fast path for `where` on ids). */
  recordByKey(db: DbSide, table: string, key: string): PyValue | undefined;
  atom(db: DbSide, name: string): PyValue | undefined;
}

/** A value a condition read, for evidence: `line.contract_end_date = "2024-12-31"`. */
export interface Fact {
  readonly name: string;
  readonly value: PyValue | undefined;
}

/** A verified task fact, as a condition reads it. */
export interface TaskFactValue {
  readonly id: string;
  readonly name: string;
  readonly value: string | number;
  /** The task's words it was read from. */
  readonly quote: string;
}

export interface EvalContext {
  readonly view: StateView;
  readonly args: PyDict;
  /** Whether a verified task permission licenses this call (for `task_permits`). */
  readonly taskPermits: boolean;
  readonly facts: Fact[];
  /** The task's verified facts by name (none when absent). */
  readonly taskFacts?: ReadonlyMap<string, TaskFactValue>;
  /** Task facts the conditions read, and the names they asked for that the task does not state. */
  readonly factsRead?: TaskFactValue[];
  readonly factsMissing?: string[];
}

type Scope = ReadonlyMap<string, PyValue>;

/** A ref split once (`line.contract_end_date` → line, [contract_end_date]): refs belong to loaded clauses. */
const splitRefs = new WeakMap<Operand, { readonly head: string; readonly rest: readonly string[] }>();
function splitRef(o: Operand & { readonly ref: string }) {
  let split = splitRefs.get(o);
  if (split === undefined) {
    const [head, ...rest] = o.ref.split(".");
    split = { head: head as string, rest };
    splitRefs.set(o, split);
  }
  return split;
}

function operandValue(o: Operand, ctx: EvalContext, scope: Scope): PyValue | undefined {
  if ("len" in o) {
    const list = operandValue(o.len, ctx, scope);
    return Array.isArray(list) ? list.length : undefined;
  }
  if ("value" in o) return o.value as PyValue;
  if ("fact" in o) {
    const f = ctx.taskFacts?.get(o.fact);
    if (f === undefined) ctx.factsMissing?.push(o.fact);
    else ctx.factsRead?.push(f);
    return f?.value;
  }
  if ("arg" in o) return Object.hasOwn(ctx.args, o.arg) ? ctx.args[o.arg] : undefined;
  const { head, rest } = splitRef(o);
  return scope.has(head) ? valueIn(scope.get(head), rest) : undefined;
}

const describe = (o: Operand): string =>
  "len" in o
    ? `the number of ${describe(o.len)}`
    : "value" in o
      ? JSON.stringify(o.value)
      : "arg" in o
        ? `argument ${o.arg}`
        : "fact" in o
          ? `task fact ${o.fact}`
          : o.ref;

/** A `where` as entries, worked out once per loaded spec. */
const whereEntries = new WeakMap<object, readonly (readonly [string, Operand])[]>();
function entriesOf(where: Readonly<Record<string, Operand>>): readonly (readonly [string, Operand])[] {
  let e = whereEntries.get(where);
  if (e === undefined) {
    e = Object.entries(where);
    whereEntries.set(where, e);
  }
  return e;
}

const isScalar = (v: PyValue | undefined): boolean =>
  v === null || typeof v !== "object" || numericValue(v) !== undefined;

function order(a: PyValue, b: PyValue): number | null {
  const x = numericValue(a);
  const y = numericValue(b);
  if (x !== undefined && y !== undefined && typeof a !== "boolean" && typeof b !== "boolean") return x - y;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  return null;
}

function compare(op: Comparison, a: PyValue | undefined, b: PyValue | undefined): Tri {
  if (a === undefined || b === undefined) return null;
  switch (op) {
    case "==":
      return pyEquals(a, b);
    case "!=":
      return !pyEquals(a, b);
    case "in":
    case "not_in": {
      if (!Array.isArray(b)) return null;
      const found = b.some((x) => pyEquals(a, x));
      return op === "in" ? found : !found;
    }
    default: {
      if (!isScalar(a) || !isScalar(b)) return null;
      const d = order(a, b);
      if (d === null) return null;
      return op === "<" ? d < 0 : op === "<=" ? d <= 0 : op === ">" ? d > 0 : d >= 0;
    }
  }
}

/** The records of a table matching `where` (ids first: a dict table is read by key when a value is one). */
function matching(
  spec: { readonly db: DbSide; readonly table: string; readonly where: Readonly<Record<string, Operand>> },
  ctx: EvalContext,
  scope: Scope,
): readonly PyValue[] | null {
  const wanted: [string, PyValue | undefined][] = entriesOf(spec.where).map(([f, o]) => [
    f,
    operandValue(o, ctx, scope),
  ]);
  if (wanted.some(([, v]) => v === undefined)) return null;
  for (const [, v] of wanted) {
    if (typeof v !== "string") continue;
    const hit = ctx.view.recordByKey(spec.db, spec.table, v);
    if (hit !== undefined && fits(hit, wanted)) return [hit];
  }
  const text = wanted.find(([, v]) => typeof v === "string");
  if (text !== undefined) {
    const hits = ctx.view.recordsWhere(spec.db, spec.table, text[0], text[1] as string);
    if (hits !== undefined) return hits.filter((r) => fits(r, wanted));
  }
  const all = ctx.view.records(spec.db, spec.table);
  if (all === undefined) return null;
  if (text === undefined) return all.filter((r) => fits(r, wanted));
  return (indexOn(all, text[0]).get(text[1] as string) ?? []).filter((r) => fits(r, wanted));
}

/** Whether a record holds every wanted field value. */
const fits = (r: PyValue, wanted: readonly (readonly [string, PyValue | undefined])[]): boolean =>
  isPyDict(r) && wanted.every(([f, v]) => Object.hasOwn(r, f) && pyEquals(r[f] as PyValue, v as PyValue));

/**
 * Records by the text value of one field. A table no call wrote is the same array at every step of
 * every simulation, so its indexes are built once per process.
 */
const indexes = keyedCache<readonly PyValue[], string, Map<string, PyValue[]>>();
function indexOn(records: readonly PyValue[], field: string): Map<string, PyValue[]> {
  return indexes(records, field, () => {
    const byValue = new Map<string, PyValue[]>();
    for (const r of records) {
      const v = isPyDict(r) && Object.hasOwn(r, field) ? r[field] : undefined;
      if (typeof v !== "string") continue;
      const list = byValue.get(v);
      if (list === undefined) byValue.set(v, [r]);
      else list.push(r);
    }
    return byValue;
  });
}

/** Binds names in order; null when one finds nothing (the clause does not apply). */
export function bind(bindings: readonly Binding[], ctx: EvalContext): Map<string, PyValue> | null {
  const scope = new Map<string, PyValue>();
  for (const b of bindings) {
    if ("atom" in b) {
      const v = ctx.view.atom(b.db, b.atom);
      if (v === undefined) return null;
      scope.set(b.as, v);
      continue;
    }
    const found = matching(b, ctx, scope)?.[0];
    if (found === undefined) return null;
    scope.set(b.as, found);
  }
  return scope;
}

function quantify(kind: "any" | "all" | "none", q: Quantifier, ctx: EvalContext, scope: Scope): Tri {
  let items: readonly PyValue[] | null;
  if ("list" in q.each) {
    const v = operandValue({ ref: q.each.list }, ctx, scope);
    items = Array.isArray(v) ? v : null;
  } else items = matching(q.each, ctx, scope);
  if (items === null) return null;
  if (items.length === 0) return kind !== "any";
  let sawUnknown = false;
  // One scope and one reusable context for every element (this runs for every governed call).
  const inner = new Map(scope);
  const elementCtx: EvalContext = { ...ctx, facts: [] };
  for (const item of items) {
    inner.set(q.as, item);
    elementCtx.facts.length = 0;
    const r = evaluateAll(q.when, elementCtx, inner);
    if ((r === true && kind !== "all") || (r === false && kind === "all")) {
      ctx.facts.push(...elementCtx.facts); // keep the facts of the element that decided
      return kind === "any";
    }
    if (r === null) sawUnknown = true;
  }
  if (sawUnknown) return null;
  return kind !== "any";
}

export function evaluate(c: Condition, ctx: EvalContext, scope: Scope): Tri {
  if ("op" in c) {
    const a = operandValue(c.left, ctx, scope);
    const b = operandValue(c.right, ctx, scope);
    if (!("value" in c.left)) ctx.facts.push({ name: describe(c.left), value: a });
    if (!("value" in c.right)) ctx.facts.push({ name: describe(c.right), value: b });
    return compare(c.op, a, b);
  }
  if ("task_permits" in c) return ctx.taskPermits;
  if ("any_of" in c) {
    let unknown = false;
    for (const x of c.any_of) {
      const r = evaluate(x, ctx, scope);
      if (r === true) return true;
      if (r === null) unknown = true;
    }
    return unknown ? null : false;
  }
  if ("any" in c) return quantify("any", c.any, ctx, scope);
  if ("all" in c) return quantify("all", c.all, ctx, scope);
  return quantify("none", c.none, ctx, scope);
}

/** All conditions: false as soon as one is false; null when none is false but one is unknown. */
export function evaluateAll(conditions: readonly Condition[], ctx: EvalContext, scope: Scope): Tri {
  let unknown = false;
  for (const c of conditions) {
    const r = evaluate(c, ctx, scope);
    if (r === false) return false;
    if (r === null) unknown = true;
  }
  return unknown ? null : true;
}

/** Whether any condition, at any depth (inside `any_of` and quantifiers), satisfies `test`. */
export function conditionsRead(conditions: readonly Condition[], test: (c: Condition) => boolean): boolean {
  return conditions.some((c) => {
    if (test(c)) return true;
    if ("any_of" in c) return conditionsRead(c.any_of, test);
    const q = "any" in c ? c.any : "all" in c ? c.all : "none" in c ? c.none : null;
    return q !== null && conditionsRead(q.when, test);
  });
}

/** Names a list of conditions reads that no binding before it provides (for verification). */
export function unboundNames(conditions: readonly Condition[], bound: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const refOf = (o: Operand) => {
    const read = readOperand(o);
    return "ref" in read ? (read.ref.split(".")[0] as string) : null;
  };
  const walk = (cs: readonly Condition[], names: ReadonlySet<string>) => {
    for (const c of cs) {
      if ("op" in c) {
        for (const o of [c.left, c.right]) {
          const r = refOf(o);
          if (r !== null && !names.has(r)) out.push(r);
        }
      } else if ("any_of" in c) walk(c.any_of, names);
      else if ("task_permits" in c) continue;
      else {
        const q = "any" in c ? c.any : "all" in c ? c.all : c.none;
        if ("list" in q.each) {
          const r = q.each.list.split(".")[0] as string;
          if (!names.has(r)) out.push(r);
        } else
          for (const o of Object.values(q.each.where)) {
            const r = refOf(o);
            if (r !== null && !names.has(r)) out.push(r);
          }
        walk(q.when, new Set([...names, q.as]));
      }
    }
  };
  walk(conditions, bound);
  return [...new Set(out)];
}
