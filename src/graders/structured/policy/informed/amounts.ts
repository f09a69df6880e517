/**
 * Whether the dollar figures an agent stated account for the money a group of writes moved. Signs are
 * not compared (agents say "refund of $207" and "difference of $207" alike); the forms that count are
 * the ones the reviewed conversations use: the total, each payment method's share, each write's amount,
 * an itemised list adding up to a write's amount, the difference of two figures of one message (an old
 * and a new price), and a per-passenger price (or difference) times the passengers when
 * the agent said it was per passenger (or quoted a fare for a booking).
 */
import { isPyDict } from "../../../../py/value.ts";
import { dollarAmounts, near } from "../named.ts";
import { type AgentText, type InformedWrite, resultRecord } from "./writes.ts";

/** "per passenger", "each", "for one passenger": the figure is a unit price. */
const PER_UNIT =
  /\b(?:per|each|every) (?:passenger|person|traveler|traveller|seat|ticket|adult|head)\b|\bfor one (?:passenger|person|traveler|traveller)\b|\/\s?(?:person|passenger|pax)\b|\beach\b/i;

/** "won't cost anything", "at no additional cost": the agent said the write is free. */
export const SAID_FREE =
  /\b(?:no|without any|without) (?:additional |extra |added )?(?:cost|charge|fee|payment)s?\b|\bwon'?t cost (?:you )?anything\b|\bwill not cost (?:you )?anything\b|\bfree of charge\b|\bat no (?:additional |extra )?(?:cost|charge)\b|\b(?:cost|charge)s? (?:you )?nothing\b|\bnot be charged\b|\bwon'?t be charged\b|\bno payment (?:is )?(?:needed|required)\b|\bcompletely free\b/i;

const SENTENCE = /(?<=[.!?])\s+|\n+/;

export const sentences = (text: string): string[] => text.split(SENTENCE).filter((s) => s.trim() !== "");

/** How many passengers the write's reservation has: from its result (the reservation) or its arguments. */
export function passengersOf(w: InformedWrite): number | null {
  const args = w.call.call.arguments;
  if (isPyDict(args) && Array.isArray(args.passengers)) return args.passengers.length;
  const passengers = resultRecord(w)?.passengers;
  return Array.isArray(passengers) ? passengers.length : null;
}

export const netOf = (w: InformedWrite): number => (w.moved ?? []).reduce((a, m) => a + m.amount, 0);

/** Whether two figures differ by the amount (an old and a new price, the difference left to the user), or by it per unit. */
function difference(figures: readonly number[], amount: number, units: number): boolean {
  const f = [...new Set(figures)].slice(0, 24);
  for (let i = 0; i < f.length; i++)
    for (let j = i + 1; j < f.length; j++) {
      const d = Math.abs((f[i] as number) - (f[j] as number));
      if (near(d, amount) || near(d * units, amount)) return true;
    }
  return false;
}

/** Whether two figures the texts state differ by the amount (an old and a new price). */
export function differenceOfTwo(texts: readonly AgentText[], amount: number): boolean {
  return difference(
    texts.flatMap((t) => dollarAmounts(t.text)),
    amount,
    1,
  );
}

/** Whether some 2 to 4 of the figures add up to the amount (an itemised list). */
function itemised(figures: readonly number[], amount: number): boolean {
  const f = [...new Set(figures)].slice(0, 14);
  const n = f.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const two = (f[i] as number) + (f[j] as number);
      if (near(two, amount)) return true;
      for (let k = j + 1; k < n; k++) {
        const three = two + (f[k] as number);
        if (near(three, amount)) return true;
        for (let l = k + 1; l < n; l++) if (near(three + (f[l] as number), amount)) return true;
      }
    }
  return false;
}

export interface Accounting {
  /** Every figure the texts state. */
  readonly figures: readonly number[];
  /** The writes whose money no figure accounts for. */
  readonly unexplained: readonly InformedWrite[];
}

/**
 * Which of the writes (each with money moved) the texts' figures do not account for. A figure equal to the
 * whole group's total, or to the sum of one text's figures, accounts for every write in the group.
 */
export function account(
  texts: readonly AgentText[],
  writes: readonly InformedWrite[],
  /** A write with any one of its payment methods' amounts stated counts as accounted for (a report naming one share). */
  anyShare = false,
): Accounting {
  const perText = texts.map((t) => (t.text.includes("$") ? dollarAmounts(t.text) : []));
  const figures = perText.flat();
  const moving = writes.filter((w) => (w.moved ?? []).length > 0);
  if (moving.length === 0) return { figures, unexplained: [] };
  const stated = (a: number) => figures.some((f) => near(f, a));
  const total = Math.abs(moving.reduce((a, w) => a + netOf(w), 0));
  const byMethod = new Map<string | null, number>();
  for (const w of moving)
    for (const m of w.moved ?? []) byMethod.set(m.method, (byMethod.get(m.method) ?? 0) + m.amount);
  const whole =
    stated(total) ||
    perText.some(
      (f) =>
        f.length > 1 &&
        near(
          [...new Set(f)].reduce((a, b) => a + b, 0),
          total,
        ),
    ) ||
    [...byMethod.values()].every((a) => stated(Math.abs(a)));
  if (whole) return { figures, unexplained: [] };
  // A unit price is a figure in a sentence that says it is one ("$161 for one passenger", "$174 each").
  let unitPrices: number[] | null = null;
  const unitPricesOf = (): number[] =>
    (unitPrices ??= texts.flatMap((t) =>
      t.text.includes("$") && PER_UNIT.test(t.text)
        ? sentences(t.text)
            .filter((s) => PER_UNIT.test(s))
            .flatMap(dollarAmounts)
        : [],
    ));
  const unexplained = moving.filter((w) => {
    const net = Math.abs(netOf(w));
    if (stated(net)) return false;
    const shares = (w.moved ?? []).map((m) => stated(Math.abs(m.amount)));
    if (anyShare ? shares.some(Boolean) : shares.every(Boolean)) return false;
    if (perText.some((f) => itemised(f, net))) return false;
    // A booking's fares are quoted per seat: every figure said for it may be one.
    const perSeat = w.call.call.name.startsWith("book") ? figures : unitPricesOf();
    const n = perSeat.length > 0 ? passengersOf(w) : null;
    if (n !== null && n > 1 && perSeat.some((f) => near(f * n, net))) return false;
    if (perText.some((f) => difference(f, net, 1))) return false;
    return true;
  });
  return { figures, unexplained };
}
