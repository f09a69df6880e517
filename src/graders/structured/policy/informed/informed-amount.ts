/**
 * The amount the user agreed to, checked against the money the write moved: the agent's figures since
 * the last write (the summary the user said yes to and any price quoted before it) must account for
 * what the DB change charged or refunded, and a write the agent called free must not charge.
 */
import type { Evidence } from "../../../evidence.ts";
import { dollars } from "../../charges.ts";
import { callEvidence } from "../trajectory.ts";
import type { PolicyInput, PolicyRule } from "../types.ts";
import { account, differenceOfTwo, netOf, SAID_FREE, sentences } from "./amounts.ts";
import {
  addedByYes,
  byUserMessage,
  didAt,
  type InformedWrite,
  informedWrites,
  isCancellation,
  mentions,
  quoteOf,
} from "./writes.ts";

/** A sentence about money coming back to the user. */
const BACK = /\b(?:refund|difference|back|credit|sav(?:e|ing)|reimburs)\w*/i;

const movedText = (w: InformedWrite): string =>
  (w.moved ?? [])
    .map(
      (m) =>
        `${m.amount > 0 ? "charged" : "refunded"} ${dollars(Math.abs(m.amount))}${m.method === null ? "" : ` to ${m.method}`}`,
    )
    .join(" and ");

export const informedAmount: PolicyRule<"informed_amount"> = {
  id: "informed_amount",
  description:
    "The user said yes, and the write then charged or refunded an amount the agent had not stated since the last write (another amount, none at all, or a write the agent called free).",
  limits: [
    "Figures are the agent's dollar amounts since the last write that took effect, up to the write (the summary the user said yes to, prices quoted before it, and the write's own message).",
    "A figure accounts for a write when it equals the write's amount, the group's total, a payment method's share, or (2 to 4 figures of one message) adds up to it; a per-passenger price counts times the passengers when the agent said it was per passenger, or quoted it for a booking.",
    "Charges and refunds are compared by size: a refund called a charge of the same amount passes. A refund nobody stated an amount for is not reported (only a charge must be agreed to), nor is a cancellation (it refunds what was paid).",
    "Two figures of one message whose difference is the amount (an old and a new price) account for it.",
    "A write that only refunds is compared with the sentences about money coming back (refund, difference, credit, savings); none stated, it is not reported. When one says the difference is refunded, two prices stated in its message that differ by the refund account for it.",
    "The window of figures starts after the last write that took effect, a cancellation aside (it quotes no price).",
    'A write the yes itself added ("yes, and also add a bag") that the summary did not mention is not compared.',
    "Without a replay (the money moved unknown) nothing is compared.",
  ],
  check(input: PolicyInput): Evidence[] {
    const out: Evidence[] = [];
    for (const group of byUserMessage(informedWrites(input))) {
      const first = group[0] as InformedWrite;
      if (!first.agreed || first.user === null) continue;
      // A cancellation refunds what was paid to where it came from: there is no amount to agree to.
      const compared = group.filter(
        (w) => w.took === true && !addedByYes(w) && !isCancellation(w.call.call.name),
      );
      // Writes that moved no money leave nothing to compare.
      if (!compared.some((w) => (w.moved ?? []).length > 0)) continue;
      const told = [...new Map(compared.flatMap((w) => w.told()).map((t) => [t.at, t])).values()];
      const user = first.user;
      const said = first.summary;
      const yes = () =>
        `the user said yes at turn ${input.messages[user.at]?.turn_idx ?? user.at}${said === null ? "" : ` to "${quoteOf(said.text)}"`}`;
      // Said free: a sentence about the write that calls it free, while it charged.
      let freeTexts: typeof told | null = null;
      for (const w of compared) {
        const charged = (w.moved ?? []).filter((m) => m.amount > 0);
        if (charged.length === 0) continue;
        freeTexts ??= told.filter((t) => SAID_FREE.test(t.text));
        const free = freeTexts
          .filter((t) => t.at <= w.call.messageIndex)
          .flatMap((t) => sentences(t.text))
          .find((s) => SAID_FREE.test(s) && mentions(s, w.call.call.name));
        if (free !== undefined)
          out.push(
            callEvidence(
              "informed_amount.said_free",
              `${yes()}; the agent said "${quoteOf(free, 120)}"; ${didAt(w)} ${movedText(w)}`,
              w.call,
              free,
            ),
          );
      }
      // A refund is compared with what was said about money coming back, not with the prices quoted on the way;
      // a refund nobody spoke of is the user's gain, not an amount agreed to.
      const refundsOnly = compared.every((w) => (w.moved ?? []).every((m) => m.amount < 0));
      const about = refundsOnly
        ? told
            .filter((t) => BACK.test(t.text))
            .map((t) => ({
              at: t.at,
              text: sentences(t.text)
                .filter((s) => BACK.test(s))
                .join(" "),
            }))
            .filter((t) => t.text !== "")
        : told;
      if (refundsOnly && about.length === 0) continue;
      const accounted = account(about, compared);
      const { figures } = accounted;
      // "The price difference will be refunded", the old and the new price in the same message: their difference is the amount.
      const pricing = refundsOnly
        ? told.filter((t) => about.some((a) => a.at === t.at && /\bdifference\b/i.test(a.text)))
        : [];
      const unexplained = accounted.unexplained.filter((w) => !differenceOfTwo(pricing, Math.abs(netOf(w))));
      for (const w of unexplained) {
        if (out.some((e) => e.toolCallId === w.call.call.id && e.messageIndex === w.call.messageIndex))
          continue;
        // Left unsaid, a refund is the user's gain; a charge is what the user must agree to.
        const charges = (w.moved ?? []).some((m) => m.amount > 0);
        if (figures.length === 0 && !charges) continue;
        out.push(
          figures.length === 0
            ? callEvidence(
                "informed_amount.unstated",
                `${yes()}, and no amount was stated since the last write; ${didAt(w)} ${movedText(w)}`,
                w.call,
                first.summary?.text ?? null,
              )
            : callEvidence(
                "informed_amount.mismatch",
                `${yes()}; the agent stated ${[...new Set(figures)].map(dollars).join(", ")} since the last write; ${didAt(w)} ${movedText(w)}`,
                w.call,
                first.summary?.text ?? null,
              ),
        );
      }
    }
    return out;
  },
};
