/**
 * A once-only write (retail's item modification and exchange) called before the agent reminded the
 * customer to confirm they had named every item: the policy asks for that reminder, since the order
 * cannot be changed again.
 */
import type { DomainName } from "../../../../domains/domain.ts";
import { DOMAIN_FACTS } from "../../../../formats/domain-facts.ts";
import { DOMAIN_NAMES } from "../../../../formats/domains.ts";
import type { Evidence } from "../../../evidence.ts";
import { agentCalls, callEvidence, textOf } from "../trajectory.ts";
import type { PolicyInput, PolicyRule } from "../types.ts";

/** The calls each domain's policy allows once per order, with the sentence that asks for the reminder. */
export const ONCE_ONLY_CALLS: Partial<Record<DomainName, ReadonlyMap<string, string>>> = Object.fromEntries(
  DOMAIN_NAMES.flatMap((d) => {
    const writes = Object.entries(DOMAIN_FACTS[d].onceOnlyWrites);
    return writes.length === 0 ? [] : [[d, new Map(writes)]];
  }),
);

/** The agent says the change is once-only, or asks whether these are all the items. */
const REMINDER = new RegExp(
  [
    // "can only be done once", "only once per order", "a one-time change", "cannot be modified again"
    String.raw`\bonly (?:be )?(?:done |made |modified |changed |exchanged |requested |processed |called |used |submitted )?once\b`,
    String.raw`\bonce per (?:order|delivered order)\b`,
    String.raw`\bone[- ]time\b`,
    String.raw`\b(?:can ?not|can't|won't be able to|will not be able to) (?:be )?(?:modif(?:y|ied)|chang(?:e|ed)|exchang(?:e|ed)|make (?:any )?(?:further|more|other) changes)\b[^.?!]*\b(?:again|after(?:wards)?|further|later)\b`,
    // "confirm that this is the only item you want to modify"
    String.raw`\bthe only (?:item|thing|change|product)s?\b[^.?!]*\b(?:modif|chang|exchang|swap|replac)\w*`,
    // "all the items you want to exchange", "any other items you'd like to modify"
    String.raw`\b(?:all|any other|any more|any additional|other|additional|more) (?:of )?(?:the )?items?\b[^.?!]*\b(?:modif|chang|exchang|swap|replac|includ|add)\w*`,
    String.raw`\b(?:modif|chang|exchang|swap|replac)\w*\b[^.?!]*\b(?:all|any other|any more|any additional|other|additional) (?:of )?(?:the |your )?items?\b`,
    String.raw`\banything else (?:you(?:'d| would)? (?:like|want|need) to |to )(?:modif|chang|exchang|swap|replac|add|includ)\w*`,
  ].join("|"),
  "i",
);

export const onceOnlyWithoutReminder: PolicyRule<"once_only_without_reminder"> = {
  id: "once_only_without_reminder",
  description:
    "An agent call to a write the policy allows once per order (retail: modify_pending_order_items, exchange_delivered_order_items) with no agent message before it reminding the customer to confirm they have provided every item.",
  limits: [
    "Lexical: a reminder is a message saying the change is once-only, or asking about all or other items to change; a reminder worded otherwise is missed (a false positive).",
    "Any agent message before the call counts, however long before (even one about another order), so a stale reminder passes.",
    "Whether the customer answered the reminder is not read.",
  ],
  check({ domain, messages }: PolicyInput): Evidence[] {
    const calls = ONCE_ONLY_CALLS[domain.name as DomainName];
    if (calls === undefined) return [];
    const out: Evidence[] = [];
    // The index of the first agent message that reminds, or the length when none does.
    let firstReminder = messages.length;
    for (let i = 0; i < messages.length; i++) {
      const m = messages[i];
      if (m?.role !== "assistant") continue;
      const text = textOf(m);
      if (text !== null && REMINDER.test(text)) {
        firstReminder = i;
        break;
      }
    }
    for (const c of agentCalls(messages)) {
      const quote = calls.get(c.call.name);
      // A reminder in the calling message itself comes too late: the customer cannot answer it.
      if (quote === undefined || firstReminder < c.messageIndex) continue;
      out.push({
        ...callEvidence(
          "once_only_without_reminder",
          `${c.call.name} can be called once per order; no agent message before it reminded the customer to confirm they had provided all the items`,
          c,
          null,
        ),
        quote,
      });
    }
    return out;
  },
};
