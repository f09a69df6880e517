/**
 * A replay's write journal: for every executed call (and the final sync), the value each DB unit had
 * just before that step first wrote it. Enough to tell which call changed a field, and to read any
 * record as it was when a call was made, without snapshotting a DB per call.
 */
import type { DbState, WriteObserver } from "../domains/db-state.ts";
import type { Requestor } from "../formats/model.ts";
import { deepClone, isPyDict, type PyValue } from "../py/value.ts";

export type DbSide = "agent" | "user";

/** One step of the replay: an executed call, or the environment's sync after the last one. */
export type JournalStep =
  | {
      readonly kind: "call";
      readonly callId: string;
      readonly name: string;
      readonly requestor: Requestor;
      /** Index of the message that made the call. */
      readonly messageIndex: number;
      readonly turnIdx: number | null;
      /** Whose toolkit the tool is in (a solo agent may call the user's own tools). */
      readonly toolkit: DbSide;
    }
  | { readonly kind: "sync" };

export interface JournalEntry {
  readonly step: number;
  readonly db: DbSide;
  readonly unit: string;
  /** The unit's value before the step first wrote it; undefined = absent. */
  readonly before: PyValue | undefined;
}

const NO_ENTRIES: readonly JournalEntry[] = [];

export class WriteJournal {
  readonly steps: JournalStep[] = [];
  readonly entries: JournalEntry[] = [];
  private seen = new Set<string>();

  /** Starts recording a new step (its index is its position in `steps`). */
  begin(step: JournalStep): void {
    this.steps.push(step);
    this.seen = new Set();
  }

  observerFor(db: DbSide): WriteObserver {
    return {
      willWrite: (unit, current, mutable) => {
        const key = `${db}\u0000${unit}`;
        if (this.steps.length === 0 || this.seen.has(key)) return;
        this.seen.add(key);
        const v = current();
        this.entries.push({
          step: this.steps.length - 1,
          db,
          unit,
          // Only this layer's own copies change in place later: shared values need no copy.
          before: v === undefined || !mutable ? v : deepClone(v),
        });
      },
    };
  }

  /** Attaches to an environment's DBs (one observer when tau2's aliasing makes them one state). */
  attach(agent: DbState, user: DbState | null): () => void {
    agent.observer = this.observerFor("agent");
    if (user !== null && user !== agent) user.observer = this.observerFor("user");
    return () => {
      agent.observer = null;
      if (user !== null) user.observer = null;
    };
  }

  /** Entries by DB and unit (two maps: a lookup builds no key). */
  private index: {
    readonly agent: Map<string, JournalEntry[]>;
    readonly user: Map<string, JournalEntry[]>;
  } | null = null;
  private indexed = 0;

  /** The entries of one unit, in step order. */
  unitEntries(db: DbSide, unit: string): readonly JournalEntry[] {
    if (this.index === null || this.indexed !== this.entries.length) {
      const index = { agent: new Map<string, JournalEntry[]>(), user: new Map<string, JournalEntry[]>() };
      for (const e of this.entries) {
        const list = index[e.db].get(e.unit);
        if (list === undefined) index[e.db].set(e.unit, [e]);
        else list.push(e);
      }
      this.index = index;
      this.indexed = this.entries.length;
    }
    return this.index[db].get(unit) ?? NO_ENTRIES;
  }

  private byStep: JournalEntry[][] | null = null;
  private stepIndexed = 0;

  /** The entries one step recorded, in the order it wrote them. */
  stepEntries(step: number): readonly JournalEntry[] {
    if (this.byStep === null || this.stepIndexed !== this.entries.length) {
      const byStep: JournalEntry[][] = [];
      for (const e of this.entries) {
        const list = byStep[e.step];
        if (list === undefined) byStep[e.step] = [e];
        else list.push(e);
      }
      this.byStep = byStep;
      this.stepIndexed = this.entries.length;
    }
    return this.byStep[step] ?? [];
  }

  /** Units of one DB the replay wrote whose name starts with `prefix` (a table's records: `lines\0`). */
  unitsWithPrefix(db: DbSide, prefix: string): string[] {
    const out = new Set<string>();
    for (const e of this.entries) if (e.db === db && e.unit.startsWith(prefix)) out.add(e.unit);
    return [...out];
  }

  /** A unit's value just before `step` ran (`final` reads it after the whole replay). */
  unitBefore(db: DbSide, unit: string, step: number, final: DbState): PyValue | undefined {
    for (const e of this.unitEntries(db, unit)) if (e.step >= step) return e.before;
    return final.unitValue(unit);
  }
}

/** The value at `rest` inside a unit's value; undefined when any step is absent. */
export function valueIn(v: PyValue | undefined, rest: readonly (string | number)[]): PyValue | undefined {
  let cur = v;
  for (const t of rest) {
    if (cur === undefined || cur === null || typeof cur !== "object") return undefined;
    // A ref written as text (`payment_history.0`) indexes a list like a number does.
    if (Array.isArray(cur))
      cur = typeof t === "number" ? cur[t] : /^\d+$/.test(t) ? cur[Number(t)] : undefined;
    else if (isPyDict(cur)) cur = Object.hasOwn(cur, String(t)) ? cur[String(t)] : undefined;
    else return undefined;
  }
  return cur;
}
