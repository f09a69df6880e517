/**
 * What the informed-write rules share: the writes that change money, items or a reservation, each with
 * the user's message it follows (the yes, or not), the agent's summary that message answered, what the
 * agent said about the price since the last write, and the money the DB change moved.
 *
 * Worked out once per rule input (every rule of a run reads the same input object).
 */
import type { DomainName } from "../../../../domains/domain.ts";
import type { Message } from "../../../../formats/model.ts";
import { isPyDict } from "../../../../py/value.ts";
import type { Movement } from "../../charges.ts";
import { affirmativeAt, findAffirmative } from "../affirmation.ts";
import { NEEDS_CONFIRMATION } from "../rules/write-without-confirmation.ts";
import {
  agentTextBefore,
  agentToolKind,
  type LocatedCall,
  latestUserText,
  locateCalls,
  succeeded,
  textOf,
} from "../trajectory.ts";
import type { PolicyInput } from "../types.ts";

/** Arguments that name what a write changes: its record, its items, its flights, its payment. */
const SUBJECT_ARGS = [
  "reservation_id",
  "order_id",
  "item_ids",
  "new_item_ids",
  "flights",
  "payment_id",
  "payment_method_id",
  "payment_methods",
] as const;

export interface AgentText {
  readonly at: number;
  readonly text: string;
}

export interface InformedWrite {
  readonly call: LocatedCall;
  /** True when the replay saw it change the DB, false when its result is an error, else null (unknown). */
  readonly took: boolean | null;
  /** The money it moved; [] when none, undefined when not replayed or it did not take effect. */
  readonly moved: readonly Movement[] | undefined;
  /** The user's latest message with text before the call. */
  readonly user: AgentText | null;
  /** Whether that message agrees: an explicit, non-negated yes that does not ask for the price or details first. */
  readonly agreed: boolean;
  /** The agent's latest text before the user's message: what the yes answered. */
  readonly summary: AgentText | null;
  /**
   * What the agent told the user about this write: its texts since the last write that took effect before
   * the user's message (a cancellation aside), up to the call (the call's own message included).
   */
  told(): readonly AgentText[];
  /** Whether the domain's policy asks for details and a yes before this write. */
  readonly needsConfirmation: boolean;
}

/** "Let me know the total", "how much will it be": the user asks for the price first. */
const ASKS_PRICE = new RegExp(
  [
    String.raw`\blet me know (?:the |what the |how much )?(?:total|cost|price|fare|amount|difference|charge)`,
    String.raw`\b(?:what|how much) (?:is|will|would) (?:be )?(?:the )?(?:total|cost|price|fare|difference|charge)`,
    String.raw`\bhow much (?:will|would|does|do) (?:it|this|that|i)\b`,
  ].join("|"),
  "i",
);
/** "Before finalizing": the user holds the write back. */
const HOLDS_BACK =
  /\bbefore (?:you )?(?:finaliz|proceed|confirm|book|mak|go(?:ing)? ahead|charg|process|complet|commit)\w*/i;

/**
 * A reply that asks for the price first, or holds the write back with no yes, is not agreement ("let me know
 * the total extra cost before finalizing anything"); a yes with a side question ("go ahead; before you
 * finalize, no change fees, right?") still is.
 */
export const defers = (text: string): boolean =>
  ASKS_PRICE.test(text) || (HOLDS_BACK.test(text) && findAffirmative(text) === null);

/** Whether a user message approves the write that follows it. */
export const agrees = (text: string): boolean => findAffirmative(text) !== null && !defers(text);

/** `agrees` for the user message at `index` of the input, its yes read once for every rule that asks. */
export const agreesAt = (input: PolicyInput, index: number, text: string): boolean =>
  affirmativeAt(input.messages, index, text) !== null && !defers(text);

function namesSubject(c: LocatedCall): boolean {
  const args = c.call.arguments;
  return isPyDict(args) && SUBJECT_ARGS.some((k) => args[k] !== undefined && args[k] !== null);
}

const cache = new WeakMap<PolicyInput, readonly InformedWrite[]>();

/** The agent's writes that name a record, items, flights or a payment, or moved money, in call order. */
export function informedWrites(input: PolicyInput): readonly InformedWrite[] {
  let hit = cache.get(input);
  if (hit === undefined) {
    hit = collect(input);
    cache.set(input, hit);
  }
  return hit;
}

function collect(input: PolicyInput): InformedWrite[] {
  const { domain, messages, solo, movements } = input;
  if (solo === true) return [];
  const needs = NEEDS_CONFIRMATION[domain.name as DomainName];
  const out: InformedWrite[] = [];
  // Where each write that took effect was made: what the agent said before the last one was about that one.
  const wrote: number[] = [];
  for (const c of locateCalls(messages)) {
    if (c.by !== "assistant" || agentToolKind(domain, c.call.name) !== "write") continue;
    const named = namesSubject(c);
    const moved = movements?.(c.messageIndex, c.call.id);
    if (!named && (moved === undefined || moved.length === 0)) continue;
    const user = latestUserText(messages, c.messageIndex);
    const agreed = user !== null && agreesAt(input, user.messageIndex, user.text);
    const upTo = user?.messageIndex ?? c.messageIndex;
    const from = (wrote.findLast((i) => i < upTo) ?? -1) + 1;
    out.push({
      call: c,
      took: moved !== undefined ? true : c.result === null ? null : c.result.failed ? false : null,
      moved,
      user: user === null ? null : { at: user.messageIndex, text: user.text },
      agreed,
      summary: user === null ? null : agentTextBefore(messages, user.messageIndex),
      told: agentTexts(messages, from, c.messageIndex),
      needsConfirmation: needs === undefined || needs.has(c.call.name),
    });
    // A refused call tells the user nothing new about the next one's price: only writes that took effect count.
    // A cancellation quotes no price, so it does not close the window of prices said for the writes after it.
    if (succeeded(c) && !isCancellation(c.call.name)) wrote.push(c.messageIndex);
  }
  return out;
}

/** The agent's texts in messages [from, to], read on first ask (only some rules read them). */
function agentTexts(messages: readonly Message[], from: number, to: number): () => readonly AgentText[] {
  let texts: AgentText[] | null = null;
  return () => {
    if (texts === null) {
      texts = [];
      for (let i = from; i <= to; i++) {
        const m = messages[i];
        if (m?.role !== "assistant") continue;
        const t = textOf(m);
        if (t !== null) texts.push({ at: i, text: t });
      }
    }
    return texts;
  };
}

const records = new WeakMap<InformedWrite, Record<string, unknown> | null>();

/** What the write's tool returned, parsed when it is a record (the reservation or order after the write), else null. */
export function resultRecord(w: InformedWrite): Record<string, unknown> | null {
  let hit = records.get(w);
  if (hit === undefined) {
    const content = w.call.result?.content;
    hit = null;
    if (content?.startsWith("{") === true)
      try {
        hit = JSON.parse(content) as Record<string, unknown>;
      } catch {
        hit = null;
      }
    records.set(w, hit);
  }
  return hit;
}

/** A cancellation refunds what was paid, to where it came from: there is no amount or method to agree to. */
export const isCancellation = (toolName: string): boolean => toolName.startsWith("cancel");

/** The writes that followed one user message, in order: a yes covers every write until the user speaks again. */
export function byUserMessage(writes: readonly InformedWrite[]): InformedWrite[][] {
  const groups = new Map<number, InformedWrite[]>();
  for (const w of writes) {
    const key = w.user?.at ?? -1;
    const g = groups.get(key);
    if (g === undefined) groups.set(key, [w]);
    else g.push(w);
  }
  return [...groups.values()];
}

export function quoteOf(text: string, max = 160): string {
  // A long text is collapsed only as far as the quote needs: a prefix long enough to give more than `max`.
  for (let k = 4 * max; ; k *= 2) {
    const flat = text.slice(0, k).replace(/\s+/g, " ").trim();
    if (flat.length > max) return `${flat.slice(0, max)}…`;
    if (k >= text.length) return flat;
  }
}

/** What a write did, for messages: `update_reservation_flights at turn 17`. */
export const didAt = (w: InformedWrite): string =>
  `${w.call.call.name} at turn ${w.call.turnIdx ?? w.call.messageIndex}`;

/**
 * A yes that asks for more than the summary offered ("yes, and also add a bag"): the writes it adds were
 * never summarised, so they are not compared with the summary.
 */
const ADDS = /\b(?:also|as well|in addition|additionally|add(?:ing)?|another|plus)\b/i;

/** The words that say what a write is about, by tool name, to tell whether a text mentions it. */
const TOPICS: readonly (readonly [RegExp, RegExp])[] = [
  [/bag/, /\bbag(?:s|gage|gages)?\b|\bluggage\b/i],
  [/flight|book/, /\bflights?\b|\bHAT\d{3}\b|\bbook/i],
  [/cabin|flight/, /\bcabin\b|\bclass\b|\bupgrad/i],
  [/passenger/, /\bpassengers?\b|\bnames?\b/i],
  [/cancel/, /\bcancel/i],
  [/return/, /\breturn/i],
  [/exchange/, /\bexchang/i],
  [/modify_pending_order_items/, /\bmodif|\bchang|\bswap|\breplac/i],
  [/address/, /\baddress\b/i],
  [/payment/, /\bpayment\b|\bcard\b|\bpaypal\b/i],
  [/insurance|book/, /\binsurance\b/i],
];

export function mentions(text: string, toolName: string): boolean {
  return TOPICS.some(([tool, words]) => tool.test(toolName) && words.test(text));
}

/** Whether the yes added this write to what the summary offered: the yes asks for more and only it mentions the write. */
export function addedByYes(w: InformedWrite): boolean {
  if (w.user === null || !ADDS.test(w.user.text)) return false;
  const name = w.call.call.name;
  return mentions(w.user.text, name) && (w.summary === null || !mentions(w.summary.text, name));
}
