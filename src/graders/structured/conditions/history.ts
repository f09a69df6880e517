/** The DBs as they were just before a replayed step, read through the replay's write journal. */
import type { DbBase, DbState } from "../../../domains/db-state.ts";
import { isPyDict, type PyDict, type PyValue } from "../../../py/value.ts";
import type { WriteJournal } from "../../../replay/journal.ts";
import type { DbSide, StateView } from "./evaluate.ts";

export interface FinalStates {
  readonly agent: DbState;
  /** Null when the domain has no user DB, or when tau2's aliasing made it the agent DB. */
  readonly user: DbState | null;
}

/** A base table's keys by the text value of one field, and every key's position (built once per base). */
interface BaseIndex {
  readonly byValue: ReadonlyMap<string, readonly string[]>;
  readonly position: ReadonlyMap<string, number>;
}
const baseIndexes = new WeakMap<DbBase, Map<string, BaseIndex>>();

function baseIndex(base: DbBase, table: string, field: string): BaseIndex {
  let byTable = baseIndexes.get(base);
  if (byTable === undefined) {
    byTable = new Map();
    baseIndexes.set(base, byTable);
  }
  const key = `${table}\u0000${field}`;
  let index = byTable.get(key);
  if (index === undefined) {
    const records = base.root[table] as PyDict;
    const byValue = new Map<string, string[]>();
    const position = new Map<string, number>();
    base.keysOf(table).forEach((k, i) => {
      position.set(k, i);
      const r = records[k];
      const v = isPyDict(r) && Object.hasOwn(r, field) ? r[field] : undefined;
      if (typeof v !== "string") return;
      const list = byValue.get(v);
      if (list === undefined) byValue.set(v, [k]);
      else list.push(k);
    });
    index = { byValue, position };
    byTable.set(key, index);
  }
  return index;
}

/** The DBs before `step`: untouched units read from the final states, written ones from the journal. */
class JournalView implements StateView {
  /** Conditions quantify over whole tables, often several times per call: each table is read once. */
  private readonly tables = new Map<string, readonly PyValue[] | undefined>();

  constructor(
    private readonly journal: WriteJournal,
    private readonly final: FinalStates,
    private readonly step: number,
  ) {}

  private stateOf(db: DbSide): DbState | null {
    return db === "agent" ? this.final.agent : this.final.user;
  }

  private before(db: DbSide, s: DbState, unit: string): PyValue | undefined {
    return this.journal.unitBefore(db, unit, this.step, s);
  }

  private readTable(db: DbSide, table: string): readonly PyValue[] | undefined {
    const s = this.stateOf(db);
    const kind = s?.base.layout[table];
    if (s === null || kind === undefined || kind === "atom") return undefined;
    // Units the replay never wrote are the same before every step as at the end.
    const written = new Set(this.journal.unitsWithPrefix(db, `${table}\u0000`));
    if (kind === "list") {
      if (written.size === 0) return s.items(table);
      const n = this.before(db, s, `${table}\u0000#len`);
      const len = typeof n === "number" ? n : s.length(table);
      const out = [];
      for (let i = 0; i < len; i++) {
        const unit = `${table}\u0000#${i}`;
        const v = written.has(unit) ? this.before(db, s, unit) : s.at(table, i);
        if (v !== undefined) out.push(v);
      }
      return out;
    }
    if (written.size === 0) return s.values(table);
    const keys = s.keys(table);
    // Records removed after `step` still existed then: take keys from the journal too.
    const units = new Set(keys.map((k) => `${table}\u0000${k}`));
    for (const u of written) units.add(u);
    const out = [];
    for (const u of units) {
      const v = written.has(u) ? this.before(db, s, u) : s.get(table, u.slice(table.length + 1));
      if (v !== undefined) out.push(v);
    }
    return out;
  }

  records(db: DbSide, table: string): readonly PyValue[] | undefined {
    const key = `${db}\u0000${table}`;
    if (!this.tables.has(key)) this.tables.set(key, this.readTable(db, table));
    return this.tables.get(key);
  }

  /**
   * The records `records()` would list whose `field` is `value`, in the same order, without reading
   * the table: untouched records come from a per-base index, the few touched ones are read one by one.
   */
  recordsWhere(db: DbSide, table: string, field: string, value: string): readonly PyValue[] | undefined {
    const s = this.stateOf(db);
    if (s === null || s.base.layout[table] !== "dict") return undefined;
    const { byValue, position } = baseIndex(s.base, table, field);
    const touched = new Set(s.touchedKeysOf(table));
    const base = s.base.root[table] as PyDict;
    const hits: { group: number; at: number; record: PyValue }[] = [];
    for (const k of byValue.get(value) ?? [])
      if (!touched.has(k)) hits.push({ group: 0, at: position.get(k) as number, record: base[k] as PyValue });
    if (touched.size > 0) {
      const prefix = `${table}\u0000`;
      const written = this.journal.unitsWithPrefix(db, prefix).map((u) => u.slice(prefix.length));
      let added: string[] | null = null;
      for (const k of touched) {
        const w = written.indexOf(k);
        const v = w >= 0 ? this.before(db, s, prefix + k) : s.get(table, k);
        if (!isPyDict(v) || v[field] !== value) continue;
        // Where `records()` puts it: base order, then keys added later, then records gone by the end.
        if (s.has(table, k)) {
          const at = position.get(k);
          if (at !== undefined) hits.push({ group: 0, at, record: v });
          else {
            added ??= s.addedKeysOf(table);
            hits.push({ group: 1, at: added.indexOf(k), record: v });
          }
        } else hits.push({ group: 2, at: w, record: v });
      }
      hits.sort((a, b) => a.group - b.group || a.at - b.at);
    }
    return hits.map((h) => h.record);
  }

  recordByKey(db: DbSide, table: string, key: string): PyValue | undefined {
    const s = this.stateOf(db);
    if (s === null || s.base.layout[table] !== "dict") return undefined;
    return this.before(db, s, `${table}\u0000${key}`);
  }

  atom(db: DbSide, name: string): PyValue | undefined {
    const s = this.stateOf(db);
    if (s === null || s.base.layout[name] !== "atom") return undefined;
    return this.before(db, s, name);
  }
}

export const viewBefore = (journal: WriteJournal, final: FinalStates, step: number): StateView =>
  new JournalView(journal, final, step);
