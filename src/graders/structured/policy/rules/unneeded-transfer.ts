/**
 * A transfer to a human the policy did not call for: the task's hand-off label says no transfer, and
 * before it the user asked for something the reference solution does not do (an ineligible
 * cancellation, compensation the user is not owed), a request the policy lets the agent deny. The
 * policy's transfer sentence is quoted: transfer "if and only if the request cannot be handled within
 * the scope of your actions".
 */
import type { Evidence } from "../../../evidence.ts";
import { TRANSFER_TOOL } from "../../handoff.ts";
import { agentToolKind, callEvidence, type LocatedCall, locateCalls, textOf } from "../trajectory.ts";
import type { PolicyInput, PolicyRule } from "../types.ts";

/** A request in words: "I want to cancel", "please cancel my reservation", "cancel it". */
const asks = (verb: string) =>
  new RegExp(
    String.raw`\b(?:want|need|like|wish|trying|hoping|have|help(?: me)?|please|could you|can you|would you)(?: \w+){0,2}? (?:to )?${verb}\b`,
    "i",
  );

/** The writes a user asks for in words, by tool: only the ones a policy lets the agent refuse. */
const REQUESTS: ReadonlyMap<string, { readonly words: RegExp; readonly what: string }> = new Map([
  ["cancel_reservation", { words: asks("cancel(?:l?ing)?"), what: "a cancellation" }],
  ["cancel_pending_order", { words: asks("cancel(?:l?ing)?"), what: "a cancellation" }],
  [
    "send_certificate",
    { words: /\bcompensat\w*|\b(?:travel )?(?:certificate|voucher) (?:for|as)\b/i, what: "compensation" },
  ],
  ["return_delivered_order_items", { words: asks("return"), what: "a return" }],
  ["exchange_delivered_order_items", { words: asks("exchange"), what: "an exchange" }],
]);

/** Words without which no request above can be made (a cheap test before the patterns). */
const REQUEST_WORDS = /cancel|compensat|certificate|voucher|return|exchang/i;

/** "I'm not looking to cancel", "I don't want to cancel": the user declines the very thing. */
const DECLINES =
  /\b(?:not|don['\u2019]?t|do not|never|no longer|without)\b[^.?!]{0,30}\b(?:cancel|compensat|return|exchang)/i;

/** The agent says a flight of the reservation was flown: the airline policy then asks for a transfer. */
const SAYS_FLOWN =
  /\balready (?:been )?(?:flown|taken off|departed)|\b(?:has|have|were|was) (?:already )?(?:been )?flown\b|\bportion of the (?:flight|trip|journey) has (?:already )?been flown/i;

/**
 * Whether a flight looked up before the transfer is dated on or before the policy's current date, and the
 * agent said it was flown ("If any portion of the flight has already been flown, the agent cannot help and
 * transfer is needed"): such a transfer is the policy's own.
 */
function flownBefore(messages: PolicyInput["messages"], transfer: LocatedCall, policyText: string): boolean {
  const upTo = transfer.messageIndex;
  // The transfer's own summary for the human agent counts as said.
  let said = SAYS_FLOWN.test(JSON.stringify(transfer.call.arguments));
  for (let i = 0; i <= upTo && !said; i++) {
    const m = messages[i];
    if (m?.role === "assistant" && SAYS_FLOWN.test(textOf(m) ?? "")) said = true;
  }
  if (!said) return false;
  const today = policyText.match(/\bcurrent time is (\d{4}-\d{2}-\d{2})/)?.[1];
  if (today === undefined) return false;
  for (let i = 0; i <= upTo; i++) {
    const m = messages[i];
    if (m?.role === "tool" && typeof m.content === "string")
      for (const d of m.content.matchAll(/"date":\s*"(\d{4}-\d{2}-\d{2})"/g))
        if ((d[1] as string) <= today) return true;
  }
  return false;
}

/** The policy's sentence on when to transfer. */
export const TRANSFER_SENTENCE = /[^.\n]*\btransfer the user to a human agent if and only if\b[^.\n]*\./i;

/** The sentence of each policy text, found once per text (a policy is some kilobytes; there are few). */
const sentences = new Map<string, string | null>();
function transferSentence(policyText: string): string | null {
  let hit = sentences.get(policyText);
  if (hit === undefined) {
    hit = policyText.match(TRANSFER_SENTENCE)?.[0].trim() ?? null;
    sentences.set(policyText, hit);
  }
  return hit;
}

export const unneededTransfer: PolicyRule<"unneeded_transfer"> = {
  id: "unneeded_transfer",
  description:
    "The agent transferred the user to a human although the task's hand-off label says no transfer, after the user asked for something the reference solution does not do (a request the policy lets the agent deny).",
  limits: [
    'The request is read from the user\'s words before the transfer, lexically: a request ("I need to cancel", "can you cancel"; compensation named), not a mention; a message that also declines it ("I\'m not looking to cancel") does not count. A request worded otherwise is missed.',
    "Whether the request could be denied is read from the reference solution: it does not call the tool the request needs. A task whose reference is wrong passes that error on.",
    'Reported only where the domain\'s policy has the sentence "transfer the user to a human agent if and only if …", which the finding quotes.',
  ],
  check({ domain, task, messages, shouldTransfer, policyText }: PolicyInput): Evidence[] {
    if (shouldTransfer !== 0 || policyText === undefined) return [];
    const transfer = locateCalls(messages).find((c) => c.by === "assistant" && c.call.name === TRANSFER_TOOL);
    if (transfer === undefined) return [];
    const sentence = transferSentence(policyText);
    if (sentence === null) return [];
    const reference = new Set((task.evaluation_criteria?.actions ?? []).map((a) => a.name));
    // The requests the agent could deny here: a write of its toolkit the reference solution does not make.
    const deniable = [...REQUESTS].filter(
      ([tool]) => agentToolKind(domain, tool) === "write" && !reference.has(tool),
    );
    if (deniable.length === 0) return [];
    for (let i = 0; i < transfer.messageIndex; i++) {
      const m = messages[i];
      if (m?.role !== "user") continue;
      const text = textOf(m);
      if (text === null || !REQUEST_WORDS.test(text)) continue;
      for (const [tool, { words, what }] of deniable) {
        if (!words.test(text) || DECLINES.test(text)) continue;
        if (flownBefore(messages, transfer, policyText)) return [];
        const said = text.replace(/\s+/g, " ").slice(0, 140);
        return [
          {
            ...callEvidence(
              "unneeded_transfer",
              `${TRANSFER_TOOL} at turn ${transfer.turnIdx ?? transfer.messageIndex}, though the hand-off label says no transfer; the user asked for ${what} at #${i} ("${said}"), which the reference solution does not do (no ${tool}): the policy lets the agent deny it`,
              transfer,
              text,
            ),
            quote: sentence,
          },
        ];
      }
    }
    return [];
  },
};
