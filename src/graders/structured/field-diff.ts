/**
 * Leaf-field differences between two DB states that share a base. Only units (records) that either
 * side touched are compared, so the cost follows what the trajectories wrote, not the DB size.
 */
import type { DbState } from "../../domains/db-state.ts";
import { isPyDict, PyFloat, type PyValue, sameCanonical } from "../../py/value.ts";

/** One differing leaf: a field path like `reservations.H8Q05L.flights[1].date`. */
export interface FieldDiff {
  readonly path: string;
  readonly a: PyValue | undefined;
  readonly b: PyValue | undefined;
  /** The DB unit the leaf is in (`reservations\0H8Q05L`) and the steps below it: the path, unparsed. */
  readonly unit: string;
  readonly rest: readonly (string | number)[];
}

const IDENT = /^[A-Za-z0-9_-]+$/;
const member = (path: string, key: string) =>
  IDENT.test(key) ? (path === "" ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;

const isLeaf = (v: PyValue | undefined) =>
  v === undefined || v === null || typeof v !== "object" || v instanceof PyFloat;

/** A path as segments; joined into text only for a leaf that differs (most compared leaves do not). */
type Segments = (string | number)[];

function pathOf(root: string, segments: Segments): string {
  let path = root;
  for (const s of segments) path = typeof s === "number" ? `${path}[${s}]` : member(path, s);
  return path;
}

function diffInto(
  unit: string,
  root: string,
  segments: Segments,
  a: PyValue | undefined,
  b: PyValue | undefined,
  out: FieldDiff[],
): void {
  if (a === b) return;
  if (isLeaf(a) || isLeaf(b) || Array.isArray(a) !== Array.isArray(b)) {
    // Python-dump equality, so `1` and `1.0` differ.
    if (!sameCanonical(a, b)) out.push({ path: pathOf(root, segments), a, b, unit, rest: [...segments] });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      segments.push(i);
      diffInto(unit, root, segments, a[i], b[i], out);
      segments.pop();
    }
    return;
  }
  if (isPyDict(a) && isPyDict(b)) {
    for (const k of Object.keys(a)) {
      segments.push(k);
      diffInto(unit, root, segments, a[k], Object.hasOwn(b, k) ? b[k] : undefined, out);
      segments.pop();
    }
    for (const k of Object.keys(b)) {
      if (Object.hasOwn(a, k)) continue;
      segments.push(k);
      diffInto(unit, root, segments, undefined, b[k], out);
      segments.pop();
    }
  }
}

/** Leaf differences of two values of `unit`; a value present on one side only is one diff at its path. */
export function diffValues(
  unit: string,
  path: string,
  a: PyValue | undefined,
  b: PyValue | undefined,
  out: FieldDiff[],
): void {
  diffInto(unit, path, [], a, b, out);
}

/** Reads one unit (`field\0key`, `field\0#i`, or an atom field) from a state. */
function unitValue(state: DbState, unit: string): { path: string; value: PyValue | undefined } | null {
  const sep = unit.indexOf("\u0000");
  if (sep < 0) return { path: unit, value: state.read(unit) };
  const field = unit.slice(0, sep);
  const key = unit.slice(sep + 1);
  if (state.base.layout[field] === "list") {
    if (key === "#len") return null; // lengths show up as added/removed indices
    const i = Number(key.slice(1));
    return { path: `${field}[${i}]`, value: state.at(field, i) };
  }
  return { path: member(field, key), value: state.get(field, key) };
}

/** Leaf-level differences between two states over the same base. */
export function diffStates(a: DbState, b: DbState): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const unit of a.differingUnits(b).sort()) {
    const ua = unitValue(a, unit);
    const ub = unitValue(b, unit);
    if (ua === null || ub === null) continue;
    diffValues(unit, ua.path, ua.value, ub.value, out);
  }
  return out;
}
