/**
 * Attribution of the delta gate's fields: which replayed calls changed each field (read from the
 * replay's write journal), with changes the environment's sync made traced back to the calls that
 * changed their sources, and pure mirrors (fields only sync writes) folded under a differing source.
 */
import type { DbState } from "../../domains/db-state.ts";
import type { DerivedField, FieldRef } from "../../domains/domain.ts";
import type { Message } from "../../formats/model.ts";
import type { PyDict } from "../../py/value.ts";
import { isPyDict, sameCanonical } from "../../py/value.ts";
import { type DbSide, type JournalStep, valueIn, type WriteJournal } from "../../replay/journal.ts";
import type { FinalStates } from "./conditions/history.ts";
import type { FieldDeviation } from "./delta-gate.ts";
import { type CallSeer, seeCall } from "./effective.ts";

/** One executed call of the replay, as what it does (see `effective.ts`). */
export interface CallRef {
  readonly step: number;
  readonly callId: string;
  /** The tool that ran: a dispatcher's call is named by the tool it dispatched. */
  readonly name: string;
  /** The dispatcher the message called (`call_discoverable_agent_tool`), or null for a direct call. */
  readonly via: string | null;
  readonly requestor: "assistant" | "user";
  readonly messageIndex: number;
  readonly turnIdx: number | null;
  /** Whose toolkit the tool is in: a user tool acts on the user's own device and state. */
  readonly toolkit: DbSide;
  readonly args: PyDict;
  /** Whether the call changed either DB. */
  readonly wrote: boolean;
}

/** Both kinds have one object shape (a sync writer's `call` is null), so code reading writers stays monomorphic. */
export type Writer =
  | { readonly kind: "call"; readonly call: CallRef }
  | { readonly kind: "sync"; readonly call: null };

const SYNC_WRITER: Writer = { kind: "sync", call: null };

export interface AttributedField extends FieldDeviation {
  /** Every step that changed the field, in order; the last is the one that left it as it is. */
  readonly writers: readonly Writer[];
  /** The differing field this one only mirrors (its cause is folded under that field's). */
  readonly mirrorOf: FieldDeviation | null;
}

/**
 * Whether a step changed a value: a tool may rewrite a record with what it already held (the journal
 * still records the touch), and such a call changed nothing.
 */
function changedAnything(journal: WriteJournal, final: FinalStates, step: number): boolean {
  return journal.stepEntries(step).some((e) => {
    const state = e.db === "agent" ? final.agent : final.user;
    if (state === null) return false;
    const entries = journal.unitEntries(e.db, e.unit);
    const next = entries[entries.indexOf(e) + 1];
    return !sameCanonical(e.before, next === undefined ? state.unitValue(e.unit) : next.before);
  });
}

/** A replayed call; whether it wrote is worked out on first ask (only a clause that would break asks). */
class ReplayedCall implements CallRef {
  private wroteCache: boolean | undefined;
  constructor(
    readonly step: number,
    readonly callId: string,
    readonly name: string,
    readonly via: string | null,
    readonly requestor: "assistant" | "user",
    readonly messageIndex: number,
    readonly turnIdx: number | null,
    readonly toolkit: DbSide,
    readonly args: PyDict,
    private readonly journal: WriteJournal,
    private readonly final: FinalStates,
  ) {}

  get wrote(): boolean {
    this.wroteCache ??= changedAnything(this.journal, this.final, this.step);
    return this.wroteCache;
  }
}

/** The executed calls of a journal, with their arguments from the messages (dispatched calls as what they run). */
export function callsOf(
  journal: WriteJournal,
  messages: readonly Message[],
  final: FinalStates,
  domain: CallSeer = {},
): CallRef[] {
  const out: CallRef[] = [];
  journal.steps.forEach((s: JournalStep, step) => {
    if (s.kind !== "call") return;
    const m = messages[s.messageIndex];
    const call =
      m !== undefined && (m.role === "assistant" || m.role === "user")
        ? m.tool_calls?.find((c) => c.id === s.callId)
        : undefined;
    const args = call !== undefined && isPyDict(call.arguments) ? call.arguments : {};
    const seen = seeCall(domain, s.name, args);
    out.push(
      new ReplayedCall(
        step,
        s.callId,
        seen?.name ?? s.name,
        seen === null ? null : s.name,
        s.requestor,
        s.messageIndex,
        s.turnIdx,
        s.toolkit,
        seen?.args ?? args,
        journal,
        final,
      ),
    );
  });
  return out;
}

const tableOf = (unit: string) => unit.split("\u0000")[0] as string;

const refMatches = (ref: FieldRef, db: DbSide, unit: string, rest: readonly (string | number)[]) =>
  ref.db === db && tableOf(unit) === ref.table && ref.path.every((p, i) => String(rest[i]) === p);

/** Steps that changed the value at `rest` inside `unit`. */
function changingSteps(
  journal: WriteJournal,
  db: DbSide,
  state: DbState,
  unit: string,
  rest: readonly (string | number)[],
): number[] {
  const entries = journal.unitEntries(db, unit);
  const out: number[] = [];
  entries.forEach((e, i) => {
    const next = entries[i + 1];
    const after = next === undefined ? state.unitValue(unit) : next.before;
    if (!sameCanonical(valueIn(e.before, rest), valueIn(after, rest))) out.push(e.step);
  });
  return out;
}

/** Call steps that changed any field a derived field is synced from. */
function sourceSteps(journal: WriteJournal, final: FinalStates, d: DerivedField): number[] {
  const steps = new Set<number>();
  for (const src of d.from) {
    const state = src.db === "agent" ? final.agent : final.user;
    if (state === null) continue;
    const units =
      state.base.layout[src.table] === "atom"
        ? [src.table]
        : journal.unitsWithPrefix(src.db, `${src.table}\u0000`);
    for (const u of units)
      for (const s of changingSteps(journal, src.db, state, u, src.path))
        if (journal.steps[s]?.kind === "call") steps.add(s);
  }
  return [...steps].sort((a, b) => a - b);
}

/** A deviation with its writers, built field by field (an object spread here cost more than the rest). */
const attributed = (
  f: FieldDeviation,
  writers: Writer[],
  mirrorOf: FieldDeviation | null,
): AttributedField => ({
  db: f.db,
  path: f.path,
  unit: f.unit,
  rest: f.rest,
  initial: f.initial,
  gold: f.gold,
  predicted: f.predicted,
  writers,
  mirrorOf,
});

export function attributeFields(
  fields: readonly FieldDeviation[],
  journal: WriteJournal,
  final: FinalStates,
  calls: readonly CallRef[],
  derived: readonly DerivedField[],
): AttributedField[] {
  const byStep = new Map(calls.map((c) => [c.step, c]));
  const located = fields.map((f) => {
    const state = f.db === "agent" ? final.agent : final.user;
    const split = state === null ? null : { unit: f.unit, rest: f.rest };
    const decl =
      split === null ? undefined : derived.find((d) => refMatches(d.field, f.db, split.unit, split.rest));
    const raw =
      state === null || split === null ? [] : changingSteps(journal, f.db, state, split.unit, split.rest);
    return { f, split, decl, raw };
  });
  return located.map(({ f, decl, raw }) => {
    const writers: Writer[] = [];
    for (const step of raw) {
      const call = byStep.get(step);
      if (call !== undefined) {
        writers.push({ kind: "call", call });
        continue;
      }
      const traced = decl === undefined ? [] : sourceSteps(journal, final, decl);
      if (traced.length === 0) writers.push(SYNC_WRITER);
      for (const s of traced) {
        const c = byStep.get(s);
        if (c !== undefined && !writers.some((w) => w.kind === "call" && w.call.step === s))
          writers.push({ kind: "call", call: c });
      }
    }
    if (writers.length > 1)
      writers.sort(
        (a, b) => (a.kind === "call" ? a.call.step : Infinity) - (b.kind === "call" ? b.call.step : Infinity),
      );
    // Sync wrote it: at the final sync step, or inside a call of the other DB's toolkit (a live
    // environment syncs after every call), so no tool of its own DB touched it.
    const onlySync =
      decl !== undefined &&
      writers.length > 0 &&
      writers.every((w) => w.kind === "sync" || w.call.toolkit !== f.db);
    const source = !onlySync
      ? undefined
      : located.find((o) => {
          const at = o.split;
          return o.f !== f && at !== null && decl.from.some((r) => refMatches(r, o.f.db, at.unit, at.rest));
        })?.f;
    return attributed(f, writers, source ?? null);
  });
}
