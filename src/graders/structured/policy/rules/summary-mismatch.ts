/**
 * What the user agreed to: the agent's last message before the user's "yes", compared with the write
 * that followed. The amount it charged (computed from the DB change, see `../../charges.ts`), the
 * reservation or order, and the items must be the ones the agent stated, and the price must have been
 * stated before the yes. Reported; it gates only when configured to.
 */
import type { Message } from "../../../../formats/model.ts";
import { isPyDict } from "../../../../py/value.ts";
import type { Evidence } from "../../../evidence.ts";
import { dollars } from "../../charges.ts";
import { affirmativeAt } from "../affirmation.ts";
import { dollarAmounts, ITEM_ARGS, ITEM_ID, near, RECORD_ARGS, recordIds, strings } from "../named.ts";
import {
  agentCalls,
  agentTextBefore,
  agentToolKind,
  callEvidence,
  type LocatedCall,
  latestUserText,
  succeeded,
  textOf,
  turnOf,
} from "../trajectory.ts";
import type { PolicyInput, PolicyRule } from "../types.ts";

/** Whether an agent message in [from, to) states a dollar amount. */
function priceStated(messages: readonly Message[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const m = messages[i];
    if (m?.role !== "assistant") continue;
    const t = textOf(m);
    if (t !== null && dollarAmounts(t).length > 0) return true;
  }
  return false;
}

export const summaryMismatch: PolicyRule<"summary_mismatch"> = {
  id: "summary_mismatch",
  description:
    "The user said yes to a summary other than what the write then did: another amount than it charged, another reservation or order, other items, or no price at all before a write that charged one.",
  limits: [
    "The summary is the agent's latest message with text before the user's yes; a yes covers every write until the user speaks again, and their charges are compared together.",
    "Amounts are the summary's dollar figures. They match when one equals the total charged, when every charge is among them, or when the distinct figures add up to the total (within a cent). A per-unit price with the total left unsaid is reported.",
    "A price stated by the agent anywhere since the last write before the yes counts as known; only the summary's own figures are compared.",
    "A record mismatch needs the summary to name another reservation or order id the conversation's calls used; an item mismatch needs it to name ten-digit item ids, none of them the call's.",
    "Whether an item or flight was available when the user said yes is not checked.",
    "Without a replay (no charges known) only records and items are compared.",
  ],
  check({ domain, messages, solo, charges }: PolicyInput): Evidence[] {
    const out: Evidence[] = [];
    if (solo === true) return out;
    const calls = agentCalls(messages);
    const writes = calls.filter((c) => agentToolKind(domain, c.call.name) === "write");
    // The writes each yes preceded: a yes covers every write until the user speaks again.
    const byYes = new Map<number, LocatedCall[]>();
    for (const c of writes) {
      if (!succeeded(c)) continue;
      const user = latestUserText(messages, c.messageIndex);
      if (user === null || affirmativeAt(messages, user.messageIndex, user.text) === null) continue;
      const group = byYes.get(user.messageIndex);
      if (group === undefined) byYes.set(user.messageIndex, [c]);
      else group.push(c);
    }
    let ids: Set<string> | null = null;
    for (const [yesAt, group] of byYes) {
      const summary = agentTextBefore(messages, yesAt);
      if (summary === null) continue;
      const yes = `the user said yes at turn ${turnOf(messages, yesAt)} to "${summary.text.replace(/\s+/g, " ").slice(0, 160)}"`;
      const first = group[0] as LocatedCall;

      const charged = group.map((c) => charges?.(c.messageIndex, c.call.id) ?? 0);
      const total = charged.reduce((a, b) => a + b, 0);
      if (total > 0) {
        const did = group
          .filter((_, i) => (charged[i] as number) > 0)
          .map((c) => `${c.call.name} at turn ${c.turnIdx ?? c.messageIndex}`)
          .join(", ");
        const stated = dollarAmounts(summary.text);
        const distinct = [...new Set(stated)];
        const each = charged.filter((a) => a > 0);
        const matches =
          stated.some((a) => near(a, total)) ||
          each.every((a) => stated.some((b) => near(a, b))) ||
          near(
            distinct.reduce((a, b) => a + b, 0),
            total,
          );
        // The price was known when an agent message since the last write before the yes stated one.
        const lastWrite = writes.filter((c) => c.messageIndex < yesAt).at(-1);
        const since = lastWrite === undefined ? 0 : lastWrite.messageIndex + 1;
        const charge = `${did} charged ${dollars(total)}`;
        if (stated.length > 0 && !matches)
          out.push(
            callEvidence(
              "summary_mismatch.amount",
              `${yes} stating ${distinct.map(dollars).join(", ")}; ${charge}`,
              first,
              summary.text,
            ),
          );
        else if (stated.length === 0 && !priceStated(messages, since, yesAt))
          out.push(
            callEvidence(
              "summary_mismatch.price_unknown",
              `${yes}, and no price was stated since the last write; ${charge}`,
              first,
              summary.text,
            ),
          );
      }

      for (const c of group) {
        const did = `${c.call.name} at turn ${c.turnIdx ?? c.messageIndex}`;
        const args = isPyDict(c.call.arguments) ? c.call.arguments : {};
        const own = RECORD_ARGS.flatMap((k) => strings(args[k]));
        if (own.length > 0) {
          ids ??= recordIds(calls);
          const named = [...ids].filter((id) => summary.text.includes(id));
          if (named.length > 0 && !own.some((id) => named.includes(id)))
            out.push(
              callEvidence(
                "summary_mismatch.record",
                `${yes} naming ${named.join(", ")}; ${did} acted on ${own.join(", ")}`,
                c,
                summary.text,
              ),
            );
        }
        // Agents name the items the user gets, rarely the ones given up: only naming none of the call's is a mismatch.
        const items = ITEM_ARGS.flatMap((k) => strings(args[k]));
        const namedItems = new Set(summary.text.match(ITEM_ID) ?? []);
        if (namedItems.size > 0 && items.length > 0 && !items.some((i) => namedItems.has(i)))
          out.push(
            callEvidence(
              "summary_mismatch.items",
              `${yes} naming items ${[...namedItems].join(", ")}; ${did} acted on ${items.join(", ")}`,
              c,
              summary.text,
            ),
          );
      }
    }
    return out;
  },
};
