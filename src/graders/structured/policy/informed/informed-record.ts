/**
 * What the write acted on, checked against the summary the user said yes to: the reservation or order,
 * the items and the flights it named must include the write's.
 */
import { isPyDict, type PyValue } from "../../../../py/value.ts";
import type { Evidence } from "../../../evidence.ts";
import { ITEM_ARGS, ITEM_ID, RECORD_ARGS, recordIds, strings } from "../named.ts";
import { agentCalls, callEvidence } from "../trajectory.ts";
import type { PolicyInput, PolicyRule } from "../types.ts";
import { addedByYes, didAt, informedWrites, quoteOf } from "./writes.ts";

/** Airline flight numbers: `HAT` and three digits. */
const FLIGHT_NUMBER = /\b[A-Z]{3}\d{3}\b/g;

function flightNumbers(v: PyValue | undefined): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((f) => (isPyDict(f) && typeof f.flight_number === "string" ? [f.flight_number] : []));
}

/** The flight numbers the conversation's calls and tool results name: a summary's other codes are not flights. */
function knownFlights({ messages }: PolicyInput): Set<string> {
  const out = new Set<string>();
  for (const m of messages) {
    if (m.role === "tool" && typeof m.content === "string")
      for (const hit of m.content.matchAll(/"flight_number":\s*"([A-Z0-9]+)"/g)) out.add(hit[1] as string);
    if ((m.role === "assistant" || m.role === "user") && m.tool_calls !== null)
      for (const c of m.tool_calls)
        if (isPyDict(c.arguments)) for (const f of flightNumbers(c.arguments.flights)) out.add(f);
  }
  return out;
}

export const informedRecord: PolicyRule<"informed_record"> = {
  id: "informed_record",
  description:
    "The user said yes to a summary naming another reservation or order, other items, or other flights than the write then acted on.",
  limits: [
    "The summary is the agent's latest text before the user's yes; a yes covers every write until the user speaks again.",
    "A record mismatch needs the summary to name another reservation or order id the conversation's calls used; an item or flight mismatch needs it to name item ids or flight numbers (ones the calls and tool results name), none of them the write's.",
    'A write the yes itself added ("yes, and also return the boots") that the summary did not mention is not compared.',
    "Whether an item or flight was available when the user said yes is not checked.",
  ],
  check(input: PolicyInput): Evidence[] {
    const out: Evidence[] = [];
    let ids: Set<string> | null = null;
    let known: Set<string> | null = null;
    for (const w of informedWrites(input)) {
      if (w.took !== true || !w.agreed || w.summary === null || w.user === null || addedByYes(w)) continue;
      const summary = w.summary.text;
      const user = w.user;
      const yes = () =>
        `the user said yes at turn ${input.messages[user.at]?.turn_idx ?? user.at} to "${quoteOf(summary)}"`;
      const args = isPyDict(w.call.call.arguments) ? w.call.call.arguments : {};
      const own = RECORD_ARGS.flatMap((k) => strings(args[k]));
      if (own.length > 0) {
        ids ??= recordIds(agentCalls(input.messages));
        const named = [...ids].filter((id) => summary.includes(id));
        if (named.length > 0 && !own.some((id) => named.includes(id)))
          out.push(
            callEvidence(
              "informed_record.record",
              `${yes()} naming ${named.join(", ")}; ${didAt(w)} acted on ${own.join(", ")}`,
              w.call,
              summary,
            ),
          );
      }
      // Agents name what the user gets more often than what is given up: naming none of the write's is a mismatch.
      const items = ITEM_ARGS.flatMap((k) => strings(args[k]));
      const namedItems = new Set(summary.match(ITEM_ID) ?? []);
      if (namedItems.size > 0 && items.length > 0 && !items.some((i) => namedItems.has(i)))
        out.push(
          callEvidence(
            "informed_record.items",
            `${yes()} naming items ${[...namedItems].join(", ")}; ${didAt(w)} acted on ${items.join(", ")}`,
            w.call,
            summary,
          ),
        );
      const flights = flightNumbers(args.flights);
      const codes = flights.length > 0 ? (summary.match(FLIGHT_NUMBER) ?? []) : [];
      if (codes.length > 0) known ??= knownFlights(input);
      const namedFlights = new Set(codes.filter((f) => known?.has(f)));
      if (namedFlights.size > 0 && flights.length > 0 && !flights.some((f) => namedFlights.has(f)))
        out.push(
          callEvidence(
            "informed_record.flights",
            `${yes()} naming flights ${[...namedFlights].join(", ")}; ${didAt(w)} booked ${flights.join(", ")}`,
            w.call,
            summary,
          ),
        );
    }
    return out;
  },
};
