/**
 * The field-level delta gate: the predicted end state may differ from the gold end state only in
 * fields the reference solution itself wrote (its footprint: gold vs initial). Field granularity,
 * not record granularity, so touching one field of a record never licenses corrupting the rest.
 */
import type { DbState } from "../../domains/db-state.ts";
import type { PyValue } from "../../py/value.ts";
import { valueIn } from "../../replay/journal.ts";
import { keyedCache } from "../../util/keyed-cache.ts";
import { diffStates } from "./field-diff.ts";

/** A DB field that differs from the gold end state outside the footprint. */
export interface FieldDeviation {
  readonly db: "agent" | "user";
  readonly path: string;
  /** The path as its DB unit and the steps inside it (see `FieldDiff`). */
  readonly unit: string;
  readonly rest: readonly (string | number)[];
  /** `undefined` = absent (a whole record added or removed). */
  readonly initial: PyValue | undefined;
  readonly gold: PyValue | undefined;
  readonly predicted: PyValue | undefined;
}

export interface DeltaGateResult {
  readonly pass: boolean;
  readonly fields: readonly FieldDeviation[];
  /** Fields that differ from gold but lie inside the footprint (reported, not gated). */
  readonly inFootprint: readonly string[];
  readonly footprintSize: number;
}

export interface GateStates {
  readonly initial: DbState;
  readonly gold: DbState;
  readonly predicted: DbState;
}

/** Paths already decided per footprint: the simulations of one task differ in the same few fields. */
const coveredCache = keyedCache<ReadonlySet<string>, string, boolean>();

/** Covers a footprint path and its descendants (a record the gold added covers all its fields). */
const covered = (footprint: ReadonlySet<string>, path: string): boolean =>
  coveredCache(footprint, path, () => coveredUncached(footprint, path));

function coveredUncached(footprint: ReadonlySet<string>, path: string): boolean {
  for (let p = path; ; ) {
    if (footprint.has(p)) return true;
    const cut = Math.max(p.lastIndexOf("."), p.lastIndexOf("["));
    if (cut <= 0) return false;
    p = p.slice(0, cut);
  }
}

/** A task's footprint depends only on its gold replay: computed once per gold state. */
const footprints = new WeakMap<DbState, Set<string>>();

function footprintOf(initial: DbState, gold: DbState): Set<string> {
  let f = footprints.get(gold);
  if (f === undefined) {
    f = new Set(diffStates(initial, gold).map((d) => d.path));
    footprints.set(gold, f);
  }
  return f;
}

/** `sameAsGold`: the caller already knows predicted equals gold (then nothing can differ). */
export function checkDb(
  db: "agent" | "user",
  s: GateStates,
  sameAsGold = false,
): Omit<DeltaGateResult, "pass"> {
  const footprint = footprintOf(s.initial, s.gold);
  if (sameAsGold) return { fields: [], inFootprint: [], footprintSize: footprint.size };
  const fields: FieldDeviation[] = [];
  const inFootprint: string[] = [];
  for (const d of diffStates(s.gold, s.predicted)) {
    if (covered(footprint, d.path)) {
      inFootprint.push(d.path);
      continue;
    }
    const initial = valueIn(s.initial.unitValue(d.unit), d.rest);
    fields.push({ db, path: d.path, unit: d.unit, rest: d.rest, initial, gold: d.a, predicted: d.b });
  }
  return { fields, inFootprint, footprintSize: footprint.size };
}

export function deltaGate(agent: GateStates, user: GateStates | null, sameAsGold = false): DeltaGateResult {
  const a = checkDb("agent", agent, sameAsGold);
  const u = user === null ? null : checkDb("user", user, sameAsGold);
  const fields = [...a.fields, ...(u?.fields ?? [])];
  return {
    pass: fields.length === 0,
    fields,
    inFootprint: [...a.inFootprint, ...(u?.inFootprint ?? [])],
    footprintSize: a.footprintSize + (u?.footprintSize ?? 0),
  };
}
