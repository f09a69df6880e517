/**
 * What an agent's text names and what a write acts on, as the rules that compare a summary with a write
 * read them: dollar figures, and the reservation, order and item ids of calls.
 */
import { isPyDict, type PyValue } from "../../../py/value.ts";
import type { LocatedCall } from "./trajectory.ts";

/** Arguments that name the record a write acts on. */
export const RECORD_ARGS = ["reservation_id", "order_id"] as const;
/** Arguments that list the items a write acts on (retail's item ids). */
export const ITEM_ARGS = ["item_ids", "new_item_ids"] as const;
/** Retail's item ids: ten digits. */
export const ITEM_ID = /\b\d{10}\b/g;

const DOLLARS = /\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?/g;

/** The dollar figures of a text (`$1,194`, `$12.50`), in order. */
export function dollarAmounts(text: string): number[] {
  return [...text.matchAll(DOLLARS)].map((m) =>
    Number(`${(m[1] as string).replaceAll(",", "")}${m[2] ?? ""}`),
  );
}

/** Two amounts within a cent. */
export const near = (a: number, b: number): boolean => Math.abs(a - b) < 0.005;

/** An argument's string values: the string itself, or a list's strings. */
export const strings = (v: PyValue | undefined): string[] =>
  typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/** Every reservation or order id the calls named, in call order. */
export function recordIds(calls: readonly LocatedCall[]): Set<string> {
  const out = new Set<string>();
  for (const c of calls)
    if (isPyDict(c.call.arguments))
      for (const k of RECORD_ARGS) for (const v of strings(c.call.arguments[k])) out.add(v);
  return out;
}
