/**
 * A fixture scaffold for one task, prefilled from its scanned candidates, for an author to edit:
 * every candidate that hints at a tool becomes a draft rule (the first one only when none does).
 * Drafts are marked TODO (rule text, action choice, scope) and quote the whole candidate sentence,
 * which the author trims to the refusal itself.
 *
 * In a domain with a fact vocabulary, every fact candidate becomes a suggested task fact: a name from
 * the vocabulary where the candidate's cues point at one (else a TODO name), the value read from the
 * sentence where it can be, the sentence as its quote, and a `_suggested` key. JSON has no comments, so
 * the key is the comment: `requirements verify` refuses a fact that still has it, so a suggestion never
 * grades until the author keeps it (edits it and deletes the key) or deletes it.
 */
import type { DomainDef } from "../../../domains/domain.ts";
import type { Task } from "../../../formats/model.ts";
import { ruleIdTaskSegment } from "./paths.ts";
import { numbersWrittenIn } from "./quote.ts";
import { type Candidate, scanTask } from "./scan.ts";
import { type FactVocabulary, type RequirementFixture, SUGGESTED_KEY, type TaskFact } from "./schema.ts";

export const TODO_ACTION = "TODO_choose_a_tool";
/** The name of a suggested fact whose cues point at no name of the vocabulary. */
export const TODO_FACT_NAME = "todo_name";

export function scaffoldFixture(
  domain: DomainDef,
  taskVersion: string,
  task: Task,
  vocabulary: FactVocabulary = {},
): RequirementFixture {
  const candidates = scanTask(task, domain, taskVersion);
  const withTools = candidates.filter((c) => c.tools.length > 0);
  const drafts = withTools.length > 0 ? withTools : candidates.slice(0, 1);
  const idPrefix = `${domain.name}.${ruleIdTaskSegment(task.id)}`;
  const preconditions =
    drafts.length === 0
      ? [
          {
            id: `${idPrefix}.todo_1`,
            action: TODO_ACTION,
            rule: "TODO: no candidate sentence found; quote the user's refusal verbatim",
            source_field: "task_instructions" as const,
            source_quote: "TODO: verbatim quote",
            arguments: null,
          },
        ]
      : drafts.map((c, i) => ({
          id: `${idPrefix}.todo_${i + 1}`,
          action: c.tools[0] ?? TODO_ACTION,
          rule: `TODO: state the prohibition (tools hinted: ${c.tools.join(", ") || "none"})`,
          source_field: c.field,
          source_quote: c.sentence,
          arguments: null,
        }));
  return {
    domain: domain.name,
    task_version: taskVersion,
    task_id: task.id,
    user_preflight_requirements: { action_preconditions: preconditions, permissions: [], charge_caps: [] },
    task_facts: suggestFacts(domain, taskVersion, task, vocabulary, idPrefix),
  };
}

/**
 * One suggested fact per fact candidate, in the order the scanner found them; none in a domain without a
 * vocabulary (no fact of it could verify). Ids are `<prefix>.<name>`, numbered from the second of a name on.
 */
export function suggestFacts(
  domain: DomainDef,
  taskVersion: string,
  task: Task,
  vocabulary: FactVocabulary,
  idPrefix = `${domain.name}.${ruleIdTaskSegment(task.id)}`,
): TaskFact[] {
  if (Object.keys(vocabulary).length === 0) return [];
  const seen = new Map<string, number>();
  return scanTask(task, domain, taskVersion, "facts").map((c) => {
    const reading = readFact(c, vocabulary);
    const n = (seen.get(reading.name) ?? 0) + 1;
    seen.set(reading.name, n);
    return {
      [SUGGESTED_KEY]: `keep or delete: ${reading.why}. To keep it, check name, type and value, trim source_quote to the words that state the fact, and delete this key`,
      id: `${idPrefix}.${reading.name}${n === 1 ? "" : `_${n}`}`,
      name: reading.name,
      type: reading.type,
      value: reading.value,
      source_field: c.field,
      source_quote: c.sentence,
    };
  });
}

interface FactReading {
  readonly name: string;
  readonly type: TaskFact["type"];
  readonly value: number | string;
  /** Where the suggestion comes from, for the author. */
  readonly why: string;
}

/** The vocabulary's names a cue points at, by what the fact is: an amount is a number, a reason an enum. */
const CUE_FACTS: Readonly<Record<string, (name: string, type: TaskFact["type"]) => boolean>> = {
  amount: (_, type) => type === "number",
  budget: (_, type) => type === "number",
  reason: (name, type) => type === "enum" && name.endsWith("_reason"),
};

/**
 * Words that state an enum value, by value (only values a domain's vocabulary lists are ever suggested;
 * a catch-all such as `other` never is: it is what the author chooses when none of these fits).
 */
const VALUE_WORDS: Readonly<Record<string, RegExp>> = {
  health: /\b(?:sick|ill|unwell|health problems?|hospital\w*|injur\w*)\b/i,
  weather: /\b(?:weather|storm\w*|snow\w*|hurricane|blizzard)\b/i,
  airline_cancelled: /\b(?:flight|airline)\s+(?:was|has been|had been|got)\s+cancell?ed\b/i,
  change_of_plan: /\b(?:change (?:of|in) (?:your )?plans?|plans? (?:have |has )?changed)\b/i,
  "no longer needed": /\bno longer need\w*\b/i,
  "ordered by mistake": /\bby mistake\b/i,
};

function readFact(c: Candidate, vocabulary: FactVocabulary): FactReading {
  const cues = `cues ${c.cues.join(", ")}`;
  const unwritten: string[] = [];
  for (const cue of c.cues) {
    const pick = CUE_FACTS[cue];
    if (pick === undefined) continue;
    for (const [name, def] of Object.entries(vocabulary)) {
      if (!pick(name, def.type)) continue;
      if (def.type === "number") {
        // A number fact's quote must write its value: no amount in the sentence, no number fact from it.
        const amount = amountIn(c.sentence);
        if (amount !== null)
          return { name, type: "number", value: amount, why: `${cues}; ${amount} read from the sentence` };
        if (!unwritten.includes(name)) unwritten.push(name);
        continue;
      }
      if (def.type === "enum") {
        const stated = def.values.filter((v) => valueStated(v, c.sentence));
        const [only] = stated;
        return stated.length === 1 && only !== undefined
          ? {
              name,
              type: "enum",
              value: only,
              why: `${cues}; ${JSON.stringify(only)} read from the sentence`,
            }
          : {
              name,
              type: "enum",
              value: `TODO: one of ${def.values.join(" | ")}`,
              why: `${cues}; choose the value`,
            };
      }
    }
  }
  return {
    name: TODO_FACT_NAME,
    type: "string",
    value: "TODO: the value the sentence states",
    why:
      unwritten.length > 0
        ? `${cues}; the sentence writes no amount for ${unwritten.join(" or ")}: name the fact it states or delete it`
        : `${cues}; no name of the domain's _facts.json fits them: name the fact it states or delete it`,
  };
}

/** The sentence's first amount of money (`$500`, `200 dollars`, `200 bucks`), else its only number. */
function amountIn(sentence: string): number | null {
  const money = /\$\s?(\d[\d,]*(?:\.\d+)?)|\b(\d[\d,]*(?:\.\d+)?)\s*(?:dollars|usd|bucks)\b/i.exec(sentence);
  const written = money === null ? numbersWrittenIn(sentence) : numbersWrittenIn(money[1] ?? money[2] ?? "");
  return money === null ? (written.length === 1 ? (written[0] ?? null) : null) : (written[0] ?? null);
}

const valueStated = (value: string, sentence: string): boolean =>
  Object.hasOwn(VALUE_WORDS, value) && (VALUE_WORDS[value]?.test(sentence) ?? false);
