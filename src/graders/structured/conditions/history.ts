/** The DBs as they were just before a replayed step, read through the replay's write journal. */
import type { DbState } from "../../../domains/db-state.ts";
import type { PyValue } from "../../../py/value.ts";
import type { WriteJournal } from "../../../replay/journal.ts";
import type { DbSide, StateView } from "./evaluate.ts";

export interface FinalStates {
  readonly agent: DbState;
  /** Null when the domain has no user DB, or when tau2's aliasing made it the agent DB. */
  readonly user: DbState | null;
}

export function viewBefore(journal: WriteJournal, final: FinalStates, step: number): StateView {
  const stateOf = (db: DbSide) => (db === "agent" ? final.agent : final.user);
  const before = (db: DbSide, s: DbState, unit: string) => journal.unitBefore(db, unit, step, s);
  // Conditions quantify over whole tables, often several times per call: read each table once.
  const tables = new Map<string, readonly PyValue[] | undefined>();
  const readTable = (db: DbSide, table: string): readonly PyValue[] | undefined => {
    const s = stateOf(db);
    const kind = s?.base.layout[table];
    if (s === null || kind === undefined || kind === "atom") return undefined;
    // Units the replay never wrote are the same before every step as at the end.
    const written = new Set(journal.unitsWithPrefix(db, `${table}\u0000`));
    if (kind === "list") {
      if (written.size === 0) return s.items(table);
      const n = before(db, s, `${table}\u0000#len`);
      const len = typeof n === "number" ? n : s.length(table);
      const out = [];
      for (let i = 0; i < len; i++) {
        const unit = `${table}\u0000#${i}`;
        const v = written.has(unit) ? before(db, s, unit) : s.at(table, i);
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
      const v = written.has(u) ? before(db, s, u) : s.get(table, u.slice(table.length + 1));
      if (v !== undefined) out.push(v);
    }
    return out;
  };
  return {
    records(db, table) {
      const key = `${db}\u0000${table}`;
      if (!tables.has(key)) tables.set(key, readTable(db, table));
      return tables.get(key);
    },
    recordByKey(db, table, key) {
      const s = stateOf(db);
      if (s === null || s.base.layout[table] !== "dict") return undefined;
      return before(db, s, `${table}\u0000${key}`);
    },
    atom(db, name) {
      const s = stateOf(db);
      if (s === null || s.base.layout[name] !== "atom") return undefined;
      return before(db, s, name);
    },
  };
}
