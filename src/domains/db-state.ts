/**
 * Copy-on-write DB states. A `DbBase` is a loaded, frozen DB; a `DbState` layers writes over a base
 * (or over another state) at record granularity, so a replay costs in proportion to what it touches.
 * The canonical text and sha256 are computed only on demand, reusing cached text of untouched records.
 */
import { createHash } from "node:crypto";
import { compareCodePoints, pyJsonString, writePyJson } from "../py/json.ts";
import {
  deepClone,
  deepFreeze,
  isPyDict,
  type PyDict,
  type PyValue,
  pyKeys,
  recordKeyOrder,
  sameCanonical,
  setKey,
  shallowClone,
} from "../py/value.ts";
import { EXIT_INTERNAL, RescoreError } from "../util/errors.ts";

/** How a top-level DB field is stored: a dict of records, a list of records, or one value. */
export type FieldKind = "dict" | "list" | "atom";
export type Layout = Readonly<Record<string, FieldKind>>;

/** Python's AttributeError text, raised when a toolkit reads a field its DB class does not have. */
export class DbAttributeError extends RescoreError {
  override readonly code = "db_attribute";
  override readonly exitStatus = EXIT_INTERNAL;

  constructor(className: string, field: string) {
    super(`'${className}' object has no attribute '${field}'`);
    this.name = "DbAttributeError";
  }
}

export class DbBase {
  readonly root: PyDict;
  private readonly textCache = new WeakMap<object, string>();

  /**
   * `className` is the pydantic class name (e.g. `FlightDB`), used in Python-style error texts.
   * `tableNotes`: dict fields that tau2 wraps as `{data: {...}, notes}` (banking's `DatabaseTable`);
   * the root holds their `data` dict, so tools and the gate address records as in any dict field,
   * and the dump and the hash put the wrapper back.
   */
  constructor(
    readonly className: string,
    readonly layout: Layout,
    root: PyDict,
    readonly tableNotes: Readonly<Record<string, string>> = {},
  ) {
    for (const f of Object.keys(layout)) {
      if (!Object.hasOwn(root, f)) throw new Error(`${className}: layout field '${f}' missing from the DB`);
    }
    for (const f of Object.keys(tableNotes)) {
      if (layout[f] !== "dict") throw new Error(`${className}: table '${f}' must be a dict field`);
    }
    this.root = deepFreeze(root);
  }

  /** The notes of a wrapped table, or undefined for a plain field. */
  notesOf(field: string): string | undefined {
    return Object.hasOwn(this.tableNotes, field) ? this.tableNotes[field] : undefined;
  }

  private readonly keyCache = new Map<string, string[]>();

  /** The keys of a dict field of the base (computed once; callers must not mutate the array). */
  keysOf(field: string): string[] {
    let keys = this.keyCache.get(field);
    if (keys === undefined) {
      keys = [...pyKeys(this.root[field] as PyDict)];
      this.keyCache.set(field, keys);
    }
    return keys;
  }

  private readonly valueCache = new Map<string, readonly PyValue[]>();

  /** The records of a dict field of the base, in key order (computed once; read-only). */
  valuesOf(field: string): readonly PyValue[] {
    let values = this.valueCache.get(field);
    if (values === undefined) {
      const table = this.root[field] as PyDict;
      values = this.keysOf(field).map((k) => table[k] as PyValue);
      this.valueCache.set(field, values);
    }
    return values;
  }

  /** Canonical text of a value, cached when the value is frozen (i.e. shared, never mutated). */
  canonical(v: PyValue): string {
    const cacheable = v !== null && typeof v === "object" && Object.isFrozen(v);
    if (cacheable) {
      const hit = this.textCache.get(v as object);
      if (hit !== undefined) return hit;
    }
    const parts: string[] = [];
    writePyJson(v, true, (c) => parts.push(c));
    const text = parts.join("");
    if (cacheable) this.textCache.set(v as object, text);
    return text;
  }
}

/** Sees every write before it happens (a replay attributes changes to the calls that made them). */
export interface WriteObserver {
  /**
   * `unit` is about to be written; `current` reads its value as it is now. `mutable`: that value is this
   * layer's own copy, which later writes may change in place (base and parent values never change).
   */
  willWrite(unit: string, current: () => PyValue | undefined, mutable: boolean): void;
}

const ABSENT = Symbol("absent");
type Slot = PyValue | typeof ABSENT;
const unitKey = (field: string, key: string) => `${field}\u0000${key}`;
const indexKey = (field: string, i: number) => `${field}\u0000#${i}`;
const lengthKey = (field: string) => `${field}\u0000#len`;

export class DbState {
  /** Units written in this layer: `field\0key` (dict), `field\0#i` / `field\0#len` (list), `field` (atom). */
  private readonly own = new Map<string, Slot>();
  /** Fields this layer wrote a unit of: reads of a field no layer wrote go straight to the base. */
  private readonly fields = new Set<string>();
  private readonly addedKeys = new Map<string, string[]>();
  /** Set by a replay that wants to know which call wrote what (never by grading itself). */
  observer: WriteObserver | null = null;

  /** Every write path calls this first: it records the field (see `fields`) and tells the observer. */
  private beforeWrite(field: string, unit: string): void {
    this.fields.add(field);
    if (this.observer === null) return;
    const mine = this.own.get(unit);
    this.observer.willWrite(unit, () => this.unitValue(unit), mine !== undefined && mine !== ABSENT);
  }

  private constructor(
    readonly base: DbBase,
    private readonly parent: DbState | null,
  ) {}

  static of(base: DbBase): DbState {
    return new DbState(base, null);
  }

  get className(): string {
    return this.base.className;
  }

  /** A child state that sees this state's data; this state must not be written afterwards. */
  fork(): DbState {
    return new DbState(this.base, this);
  }

  private kind(field: string): FieldKind {
    const k = this.base.layout[field];
    if (k === undefined) throw new DbAttributeError(this.base.className, field);
    return k;
  }

  /** Whether this layer or one below it wrote any unit of `field`. */
  private wrote(field: string): boolean {
    for (let s: DbState | null = this; s !== null; s = s.parent) if (s.fields.has(field)) return true;
    return false;
  }

  private slot(key: string): Slot | undefined {
    // One lookup per layer: a slot never holds undefined (a deleted key holds ABSENT).
    for (let s: DbState | null = this; s !== null; s = s.parent) {
      const hit = s.own.get(key);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  // ---- dict fields ----

  /** Read-only view of a record; never mutate the result (base records are frozen). */
  get(field: string, key: string): PyValue | undefined {
    this.expect(field, "dict");
    const s = this.wrote(field) ? this.slot(unitKey(field, key)) : undefined;
    if (s === ABSENT) return undefined;
    if (s !== undefined) return s;
    const coll = this.base.root[field] as PyDict;
    return Object.hasOwn(coll, key) ? coll[key] : undefined;
  }

  /** Whether any layer added or removed a key of a dict field (else its keys are the base's). */
  private changesKeysOf(field: string): boolean {
    if (!this.wrote(field)) return false;
    const prefix = `${field}\u0000`;
    for (let s: DbState | null = this; s !== null; s = s.parent) {
      if (s.addedKeys.has(field)) return true;
      for (const [k, v] of s.own) if (v === ABSENT && k.startsWith(prefix)) return true;
    }
    return false;
  }

  has(field: string, key: string): boolean {
    return this.get(field, key) !== undefined;
  }

  /** A writable copy of a record, cloned into this layer on first write. Throws if absent. */
  mut<T extends PyValue = PyDict>(field: string, key: string): T {
    const k = unitKey(field, key);
    this.beforeWrite(field, k);
    const mine = this.own.get(k);
    if (mine !== undefined && mine !== ABSENT) {
      if (!this.sharing.has(k)) return mine as T;
      // Written through `mutPath`: own every container before handing the record out whole.
      this.sharing.delete(k);
      const whole = deepClone(mine);
      this.own.set(k, whole);
      return whole as T;
    }
    const cur = this.get(field, key);
    if (cur === undefined) throw new Error(`${field}[${key}] does not exist`);
    const copy = deepClone(cur);
    this.own.set(k, copy);
    return copy as T;
  }

  /**
   * The writable dict at `path` inside a record, for a tool that writes a few leaves of a large record
   * (a flight's seats on one of its many dates). Only the record and the dicts on the path are copied
   * into this layer; the rest stays shared with the layers below, which never change, so comparisons
   * and the delta gate's diff stop at the shared parts (`===`). Throws if the record is absent or a
   * step of the path is not a dict.
   */
  mutPath(field: string, key: string, path: readonly string[]): PyDict {
    const k = unitKey(field, key);
    this.beforeWrite(field, k);
    let node = this.own.get(k);
    if (node === undefined || node === ABSENT) {
      const cur = this.get(field, key);
      if (cur === undefined) throw new Error(`${field}[${key}] does not exist`);
      if (!isPyDict(cur)) throw new Error(`${field}[${key}] is not a dict`);
      node = this.copyOf(cur);
      this.own.set(k, node);
      this.sharing.add(k);
    }
    // A record this layer owns whole (through `mut` or `put`) has nothing below it to copy.
    const shares = this.sharing.has(k);
    for (const step of path) {
      const child: PyValue | undefined = isPyDict(node) ? node[step] : undefined;
      if (!isPyDict(child)) throw new Error(`${field}[${key}]: ${path.join(".")} is not a dict`);
      if (!shares || this.copies.has(child)) node = child;
      else {
        const copy = this.copyOf(child);
        setKey(node as PyDict, step, copy);
        node = copy;
      }
    }
    if (!isPyDict(node)) throw new Error(`${field}[${key}] is not a dict`);
    return node;
  }

  /** Units whose own value shares containers with the layers below (written through `mutPath`). */
  private readonly sharing = new Set<string>();
  /** The containers `mutPath` copied into this layer. */
  private readonly copies = new WeakSet<object>();

  private copyOf(d: PyDict): PyDict {
    const c = shallowClone(d);
    this.copies.add(c);
    return c;
  }

  put(field: string, key: string, value: PyValue): void {
    this.expect(field, "dict");
    this.beforeWrite(field, unitKey(field, key));
    const existed = this.has(field, key);
    this.own.set(unitKey(field, key), value);
    this.sharing.delete(unitKey(field, key)); // the value is the caller's, shared with nothing below
    if (!existed) {
      const list = this.addedKeys.get(field) ?? [];
      list.push(key);
      this.addedKeys.set(field, list);
    }
  }

  remove(field: string, key: string): void {
    this.expect(field, "dict");
    this.beforeWrite(field, unitKey(field, key));
    this.own.set(unitKey(field, key), ABSENT);
  }

  /** Keys in Python dict order: base order, then keys added later in insertion order. */
  keys(field: string): string[] {
    this.expect(field, "dict");
    if (!this.changesKeysOf(field)) return this.base.keysOf(field);
    // A base key removed and put back keeps its base position.
    return [...this.base.keysOf(field).filter((k) => this.has(field, k)), ...this.addedKeysOf(field)];
  }

  /** Keys of a dict field that some layer wrote, added or removed (layers hold only the few units a replay wrote). */
  touchedKeysOf(field: string): string[] {
    const prefix = `${field}\u0000`;
    const out = new Set<string>();
    for (let s: DbState | null = this; s !== null; s = s.parent)
      for (const k of s.own.keys()) if (k.startsWith(prefix)) out.add(k.slice(prefix.length));
    return [...out];
  }

  /** Keys no base record has, present now, in the order `keys` lists them (after the base's). */
  addedKeysOf(field: string): string[] {
    const out = new Set<string>();
    const layers: DbState[] = [];
    for (let s: DbState | null = this; s !== null; s = s.parent) layers.unshift(s);
    const base = this.base.root[field] as PyDict;
    for (const layer of layers)
      for (const k of layer.addedKeys.get(field) ?? []) if (!Object.hasOwn(base, k)) out.add(k);
    return [...out].filter((k) => this.has(field, k));
  }

  /** Every record of a dict field in key order, read-only (the base's own array when no layer wrote it). */
  values(field: string): readonly PyValue[] {
    this.expect(field, "dict");
    if (!this.wrote(field)) return this.base.valuesOf(field);
    return this.keys(field).map((k) => this.get(field, k) as PyValue);
  }

  // ---- list fields ----

  length(field: string): number {
    this.expect(field, "list");
    const s = this.wrote(field) ? this.slot(lengthKey(field)) : undefined;
    return typeof s === "number" ? s : (this.base.root[field] as PyValue[]).length;
  }

  at(field: string, i: number): PyValue | undefined {
    if (i < 0 || i >= this.length(field)) return undefined;
    const s = this.wrote(field) ? this.slot(indexKey(field, i)) : undefined;
    if (s !== undefined && s !== ABSENT) return s;
    return (this.base.root[field] as PyValue[])[i];
  }

  /** All items of a list field, read-only. */
  items(field: string): PyValue[] {
    const n = this.length(field);
    const out: PyValue[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = this.at(field, i) as PyValue;
    return out;
  }

  /** Index of the first item satisfying `pred`, or -1 (tau2 looks records up by linear scan). */
  findIndex(field: string, pred: (item: PyValue) => boolean): number {
    const n = this.length(field);
    for (let i = 0; i < n; i++) if (pred(this.at(field, i) as PyValue)) return i;
    return -1;
  }

  mutAt<T extends PyValue = PyDict>(field: string, i: number): T {
    const k = indexKey(field, i);
    this.beforeWrite(field, k);
    const mine = this.own.get(k);
    if (mine !== undefined && mine !== ABSENT) return mine as T;
    const cur = this.at(field, i);
    if (cur === undefined) throw new Error(`${field}[${i}] does not exist`);
    const copy = deepClone(cur);
    this.own.set(k, copy);
    return copy as T;
  }

  push(field: string, value: PyValue): void {
    const n = this.length(field);
    this.beforeWrite(field, indexKey(field, n));
    this.beforeWrite(field, lengthKey(field));
    this.own.set(indexKey(field, n), value);
    this.own.set(lengthKey(field), n + 1);
  }

  // ---- atom fields ----

  read(field: string): PyValue {
    this.expect(field, "atom");
    const s = this.wrote(field) ? this.slot(field) : undefined;
    if (s !== undefined && s !== ABSENT) return s;
    return this.base.root[field] as PyValue;
  }

  mutAtom<T extends PyValue = PyDict>(field: string): T {
    this.beforeWrite(field, field);
    const mine = this.own.get(field);
    if (mine !== undefined && mine !== ABSENT) return mine as T;
    const copy = deepClone(this.read(field));
    this.own.set(field, copy);
    return copy as T;
  }

  write(field: string, value: PyValue): void {
    this.expect(field, "atom");
    this.beforeWrite(field, field);
    this.own.set(field, value);
  }

  private expect(field: string, kind: FieldKind): void {
    const k = this.kind(field);
    if (k !== kind) throw new Error(`${this.base.className}.${field} is a ${k} field, not ${kind}`);
  }

  // ---- whole-DB views ----

  /** The full DB as one value (shares untouched records; do not mutate). */
  dump(): PyDict {
    const out: PyDict = {};
    for (const field of Object.keys(this.base.root)) {
      const kind = this.base.layout[field];
      if (kind === "dict") {
        const d: PyDict = {};
        const keys = this.keys(field);
        for (const k of keys) d[k] = this.get(field, k) as PyValue;
        recordKeyOrder(d, keys); // a merge of this dump keeps Python's order
        const notes = this.base.notesOf(field);
        out[field] = notes === undefined ? d : { data: d, notes };
      } else if (kind === "list") out[field] = this.items(field);
      else out[field] = kind === "atom" ? this.read(field) : (this.base.root[field] as PyValue);
    }
    return out;
  }

  /** Streams the canonical text (`json.dumps(model_dump(), sort_keys=True)`). */
  writeCanonical(emit: (chunk: string) => void): void {
    const b = this.base;
    const fields = Object.keys(b.root).sort(compareCodePoints);
    emit("{");
    fields.forEach((field, fi) => {
      emit(`${fi > 0 ? ", " : ""}${pyJsonString(field)}: `);
      const kind = b.layout[field];
      if (kind === "dict") {
        const notes = b.notesOf(field);
        if (notes !== undefined) emit('{"data": ');
        const keys = [...this.keys(field)].sort(compareCodePoints);
        emit("{");
        keys.forEach((k, i) => {
          emit(`${i > 0 ? ", " : ""}${pyJsonString(k)}: `);
          emit(b.canonical(this.get(field, k) as PyValue));
        });
        emit("}");
        if (notes !== undefined) emit(`, "notes": ${pyJsonString(notes)}}`);
      } else if (kind === "list") {
        const n = this.length(field);
        emit("[");
        for (let i = 0; i < n; i++) {
          if (i > 0) emit(", ");
          emit(b.canonical(this.at(field, i) as PyValue));
        }
        emit("]");
      } else {
        emit(b.canonical(kind === "atom" ? this.read(field) : (b.root[field] as PyValue)));
      }
    });
    emit("}");
  }

  canonical(): string {
    const parts: string[] = [];
    this.writeCanonical((c) => parts.push(c));
    return parts.join("");
  }

  /** sha256 of the canonical text: tau2's `get_db_hash`. */
  hash(): string {
    const h = createHash("sha256");
    let buf = "";
    this.writeCanonical((c) => {
      buf += c;
      if (buf.length > 1 << 16) {
        h.update(buf);
        buf = "";
      }
    });
    h.update(buf);
    return h.digest("hex");
  }

  /** Every unit written anywhere in this state's chain of layers. */
  touchedUnits(): Set<string> {
    const out = new Set<string>();
    for (let s: DbState | null = this; s !== null; s = s.parent) for (const k of s.own.keys()) out.add(k);
    return out;
  }

  /** One unit's value as this state sees it (undefined when absent; a list length for `#len`). */
  unitValue(unit: string): PyValue | undefined {
    const sep = unit.indexOf("\u0000");
    if (sep < 0) return this.read(unit);
    const field = unit.slice(0, sep);
    const key = unit.slice(sep + 1);
    if (this.base.layout[field] === "list") {
      return key === "#len" ? this.length(field) : this.at(field, Number(key.slice(1)));
    }
    return this.get(field, key);
  }

  /** Units whose content differs between two states (compares only what either touched). */
  differingUnits(other: DbState): string[] {
    return [...this.touchedByEither(other)].filter((u) => !this.sameUnit(other, u));
  }

  /** DB equality as tau2 decides it (equal hashes), without hashing the whole DB. */
  sameAs(other: DbState): boolean {
    if (other.base !== this.base) return this.hash() === other.hash();
    for (const u of this.touchedByEither(other)) if (!this.sameUnit(other, u)) return false;
    return true;
  }

  /**
   * Units either state's own layers wrote since their nearest common ancestor: below it both read the
   * same layers, so no other unit can differ (a gold target and a replay both fork one task setup).
   */
  private touchedByEither(other: DbState): Set<string> {
    if (other.base !== this.base) throw new Error("states over different bases cannot be compared unit-wise");
    const theirs = new Set<DbState>();
    for (let s: DbState | null = other; s !== null; s = s.parent) theirs.add(s);
    const units = new Set<string>();
    let common: DbState | null = null;
    for (let s: DbState | null = this; s !== null; s = s.parent) {
      if (theirs.has(s)) {
        common = s;
        break;
      }
      for (const k of s.own.keys()) units.add(k);
    }
    for (let s: DbState | null = other; s !== null && s !== common; s = s.parent)
      for (const k of s.own.keys()) units.add(k);
    return units;
  }

  private sameUnit(other: DbState, unit: string): boolean {
    return sameCanonical(this.unitValue(unit), other.unitValue(unit));
  }
}
