/**
 * What each replayed call charged, read from the DB change it made (never from the agent's words), and
 * the user's charge caps checked against it. A call charges when it appends a payment to a record's
 * `payment_history` (a positive amount, not a refund) or sets a positive `exchange_price_difference`;
 * both domains that take money (airline, retail) record every charge one of these two ways.
 */
import { isPyDict, numericValue, type PyValue } from "../../py/value.ts";
import type { WriteJournal } from "../../replay/journal.ts";
import { type Cause, cause } from "../causes.ts";
import type { Evidence } from "../evidence.ts";
import { turnOf } from "./attempts.ts";
import type { CallRef } from "./attribution.ts";
import type { FinalStates } from "./conditions/history.ts";
import type { VerifiedCap } from "./requirements/verify.ts";
import { callEvidence } from "./write-causes.ts";

/** One charge a call made: where it is recorded, and how much. */
export interface ChargeEntry {
  /** `<unit>.payment_history[i]` or `<unit>.exchange_price_difference`, with the unit's table and key. */
  readonly path: string;
  readonly amount: number;
}

export interface CallCharge {
  readonly call: CallRef;
  /** The sum of `entries`. */
  readonly amount: number;
  readonly entries: readonly ChargeEntry[];
}

/** Every call that charged something, in call order; worked out on first ask. */
export type Charges = () => readonly CallCharge[];

export const NO_CHARGES: Charges = () => [];

const unitPath = (unit: string) => unit.replaceAll("\u0000", ".");

const amountOf = (v: PyValue | undefined): number | undefined =>
  v === undefined || typeof v === "boolean" ? undefined : numericValue(v);

/**
 * What a record's new payments charged between two of its values: their net, when positive. A refund is a
 * negative amount (airline) or a `refund` transaction (retail); cancelling a cancelled airline reservation
 * reverses its refunds, which nets to nothing.
 */
function chargesIn(unit: string, before: PyValue | undefined, after: PyValue | undefined): ChargeEntry[] {
  if (!isPyDict(after)) return [];
  const out: ChargeEntry[] = [];
  const was = isPyDict(before) ? before : null;
  const history = after.payment_history;
  const had = was !== null && Array.isArray(was.payment_history) ? was.payment_history.length : 0;
  if (Array.isArray(history)) {
    const paid: ChargeEntry[] = [];
    let net = 0;
    for (let i = had; i < history.length; i++) {
      const p = history[i];
      if (!isPyDict(p)) continue;
      const amount = amountOf(p.amount);
      if (amount === undefined) continue;
      const signed = p.transaction_type === "refund" ? -amount : amount;
      net += signed;
      if (signed > 0) paid.push({ path: `${unitPath(unit)}.payment_history[${i}]`, amount: signed });
    }
    // One new payment is named by its entry; several by the list they were added to.
    if (net > 0.005)
      out.push({
        path: paid.length === 1 ? (paid[0] as ChargeEntry).path : `${unitPath(unit)}.payment_history`,
        amount: net,
      });
  }
  const diff = amountOf(after.exchange_price_difference);
  if (diff !== undefined && diff > 0 && amountOf(was?.exchange_price_difference) === undefined)
    out.push({ path: `${unitPath(unit)}.exchange_price_difference`, amount: diff });
  return out;
}

/** The charges of every call that took effect, from the units each one wrote. */
export function chargesOf(journal: WriteJournal, final: FinalStates, calls: readonly CallRef[]): Charges {
  let known: CallCharge[] | null = null;
  return () => {
    if (known !== null) return known;
    known = [];
    for (const call of calls) {
      const entries: ChargeEntry[] = [];
      for (const e of journal.stepEntries(call.step)) {
        const state = e.db === "agent" ? final.agent : final.user;
        if (state === null) continue;
        const after = journal.unitBefore(e.db, e.unit, call.step + 1, state);
        for (const c of chargesIn(e.unit, e.before, after)) entries.push(c);
      }
      if (entries.length === 0) continue;
      const amount = entries.reduce((a, c) => a + c.amount, 0);
      known.push({ call, amount, entries });
    }
    return known;
  };
}

/**
 * Money a call moved on one payment method, signed: a charge is positive, a refund negative. Read from
 * the new `payment_history` entries of the records it wrote (airline refunds are negative amounts, retail
 * ones `refund` transactions), and a new `exchange_price_difference` (negative: the customer is refunded).
 */
export interface Movement {
  /** The payment method's id (`payment_id` or `payment_method_id`), or null when the entry names none. */
  readonly method: string | null;
  readonly amount: number;
}

/** Per call (by message index and tool-call id): the money it moved, netted per method; [] for none. */
export type Movements = (messageIndex: number, callId: string) => readonly Movement[];

export const NO_MOVEMENTS: Movements = () => [];

function movementsIn(
  before: PyValue | undefined,
  after: PyValue | undefined,
  into: Map<string | null, number>,
): void {
  if (!isPyDict(after)) return;
  const was = isPyDict(before) ? before : null;
  const history = after.payment_history;
  const had = was !== null && Array.isArray(was.payment_history) ? was.payment_history.length : 0;
  if (Array.isArray(history))
    for (let i = had; i < history.length; i++) {
      const p = history[i];
      if (!isPyDict(p)) continue;
      const amount = amountOf(p.amount);
      if (amount === undefined) continue;
      const signed = p.transaction_type === "refund" ? -Math.abs(amount) : amount;
      const id = p.payment_id ?? p.payment_method_id;
      const method = typeof id === "string" ? id : null;
      into.set(method, (into.get(method) ?? 0) + signed);
    }
  const diff = amountOf(after.exchange_price_difference);
  if (diff !== undefined && diff !== 0 && amountOf(was?.exchange_price_difference) === undefined) {
    const id = after.exchange_payment_method_id;
    const method = typeof id === "string" ? id : null;
    into.set(method, (into.get(method) ?? 0) + diff);
  }
}

/** A replayed call by message index and tool-call id. */
export type CallAt = (messageIndex: number, callId: string) => CallRef | undefined;

/** The money every call that took effect moved, from the units each one wrote; each call worked out on first ask. */
export function movementsOf(journal: WriteJournal, final: FinalStates, callAt: CallAt): Movements {
  const known = new Map<string, readonly Movement[]>();
  return (messageIndex, callId) => {
    const key = `${messageIndex}\u0000${callId}`;
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const call = callAt(messageIndex, callId);
    const net = new Map<string | null, number>();
    if (call !== undefined)
      for (const e of journal.stepEntries(call.step)) {
        const state = e.db === "agent" ? final.agent : final.user;
        if (state === null) continue;
        movementsIn(e.before, journal.unitBefore(e.db, e.unit, call.step + 1, state), net);
      }
    const moved = [...net]
      .filter(([, a]) => Math.abs(a) > 0.005)
      .map(([method, amount]) => ({ method, amount }));
    known.set(key, moved);
    return moved;
  };
}

/** Money as the policies write it: `$150`, `$12.50`. */
export const dollars = (n: number): string => (Number.isInteger(n) ? `$${n}` : `$${n.toFixed(2)}`);

/**
 * Each cap the agent's charges exceed (their sum over the calls it governs): a `requirement` cause
 * with every charging call and the fact's quote as evidence. Charges within a cent of it are within it.
 */
export function chargeCapCauses(caps: readonly VerifiedCap[], charges: Charges): Cause[] {
  if (caps.length === 0) return [];
  const out: Cause[] = [];
  for (const { cap, fact } of caps) {
    const limit = fact.fact.value as number;
    const governed = charges().filter(
      (c) => c.call.requestor === "assistant" && (cap.tools === null || cap.tools.includes(c.call.name)),
    );
    const total = governed.reduce((a, c) => a + c.amount, 0);
    if (total <= limit + 0.005) continue;
    const each = governed.map((c) => `${c.call.name} at turn ${turnOf(c.call)}: ${dollars(c.amount)}`);
    const message = `${cap.rule}: charged ${dollars(total)} (${each.join("; ")}), above the ${dollars(limit)} the user stated`;
    const evidence: Evidence[] = governed.map((c) =>
      callEvidence(
        "charge_cap.charge",
        `${c.call.name} at turn ${turnOf(c.call)} charged ${dollars(c.amount)} (${c.entries.map((e) => `${e.path} = ${dollars(e.amount)}`).join(", ")})`,
        c.call,
        fact.fact.source_quote,
      ),
    );
    evidence.push({
      code: "task_fact",
      message: `task fact ${fact.fact.name} = ${limit} (${fact.fact.id}): the cap is ${dollars(limit)}`,
      quote: fact.fact.source_quote,
    });
    out.push(cause("requirement", cap.id, { gates: true, message, evidence }));
  }
  return out;
}
