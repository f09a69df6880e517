/**
 * Leaf-field differences between two DB states that share a base. Only units (records) that either
 * side touched are compared, so the cost follows what the trajectories wrote, not the DB size.
 */
import type { DbState } from "../../domains/db-state.ts";
import { canonicalJson } from "../../formats/py/json.ts";
import { isPyDict, PyFloat, type PyValue } from "../../formats/py/value.ts";

/** One differing leaf: a field path like `reservations.H8Q05L.flights[1].date`. */
export interface FieldDiff {
  readonly path: string;
  readonly a: PyValue | undefined;
  readonly b: PyValue | undefined;
}

const IDENT = /^[A-Za-z0-9_-]+$/;
const member = (path: string, key: string) =>
  IDENT.test(key) ? (path === "" ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`;

const leafText = (v: PyValue | undefined) => (v === undefined ? undefined : canonicalJson(v));
const isLeaf = (v: PyValue | undefined) =>
  v === undefined || v === null || typeof v !== "object" || v instanceof PyFloat;

/** Leaf differences of two values; a value present on one side only is one diff at its path. */
export function diffValues(
  path: string,
  a: PyValue | undefined,
  b: PyValue | undefined,
  out: FieldDiff[],
): void {
  if (a === b) return;
  if (isLeaf(a) || isLeaf(b) || Array.isArray(a) !== Array.isArray(b)) {
    if (leafText(a) !== leafText(b)) out.push({ path, a, b });
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) diffValues(`${path}[${i}]`, a[i], b[i], out);
    return;
  }
  if (isPyDict(a) && isPyDict(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      diffValues(
        member(path, k),
        Object.hasOwn(a, k) ? a[k] : undefined,
        Object.hasOwn(b, k) ? b[k] : undefined,
        out,
      );
    }
  }
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
    diffValues(ua.path, ua.value, ub.value, out);
  }
  return out;
}
