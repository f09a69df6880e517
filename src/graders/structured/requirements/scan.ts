/**
 * Candidate prohibitions: sentences of a task's user instructions that negate a want ("you don't
 * want", "you are not willing", "never" …). A human reads each candidate and either authors a rule
 * or records why not (`_reviewed-candidates.json`); the scanner only makes sure none is overlooked.
 */
import type { DomainDef } from "../../../domains/domain.ts";
import type { Task } from "../../../formats/model.ts";
import { instructionField } from "./quote.ts";
import type { SourceField } from "./schema.ts";
import { splitSentences } from "./sentences.ts";

/** Phrases that mark a sentence as a possible prohibition, by short label. */
const PROHIBITION_CUES: readonly (readonly [label: string, pattern: RegExp])[] = [
  ["don't want", /\b(?:don't|do not|doesn't|does not|didn't|did not)\s+(?:\w+\s+)?want\b/i],
  ["not willing", /\b(?:not|un)\s*willing\b/i],
  ["refuse", /\brefus(?:e|es|ed|ing)\b/i],
  ["never", /\bnever\b/i],
  ["do not", /\b(?:do not|don't|does not|doesn't)\b/i],
  ["not interested", /\bnot\s+interested\b/i],
  ["without", /\bwithout\b/i],
  ["won't", /\b(?:won't|will not|would not|wouldn't)\b/i],
  ["not ok", /\bnot\s+(?:ok|okay|fine|acceptable|happy)\b/i],
  ["no longer", /\bno longer\b/i],
  ["rather not", /\brather not\b/i],
  ["avoid", /\bavoid\b/i],
  ["not accept", /\b(?:not|n't)\s+accept\b/i],
  ["not to", /\bnot to\b/i],
  ["under no circumstances", /\bunder no circumstances\b/i],
  ["nothing else", /\bnothing else\b/i],
  ["forget about it", /\bforget about it\b/i],
];

/** Keywords that hint at tools, as predicates on tool names (matched against the domain toolkit). */
const TOOL_HINTS: readonly (readonly [pattern: RegExp, tool: (name: string) => boolean])[] = [
  [/\bcancel/i, (t) => t.startsWith("cancel_")],
  [
    /\b(?:transfer|human|another agent|representative|supervisor|manager)\b/i,
    (t) => t === "transfer_to_human_agents",
  ],
  [
    /\b(?:change|changing|modify|modif\w*|update|upgrad\w*|downgrad\w*|switch\w*)\b/i,
    (t) => t.startsWith("update_") || t.startsWith("modify_"),
  ],
  [/\bbook\w*\b/i, (t) => t === "book_reservation"],
  [/\bexchang\w*\b/i, (t) => t.startsWith("exchange_")],
  [/\breturn\w*\b/i, (t) => t.startsWith("return_")],
  [/\brefund\w*\b/i, (t) => t.startsWith("cancel_") || t.startsWith("return_")],
  [/\b(?:compensat\w*|certificate|voucher)\b/i, (t) => t === "send_certificate"],
  [/\bbag\w*\b/i, (t) => t === "update_reservation_baggages"],
  [/\bpassenger\w*\b/i, (t) => t === "update_reservation_passengers"],
  [/\baddress\w*\b/i, (t) => t.includes("address")],
  [/\b(?:pay|paying|payment|charge\w*|card)\b/i, (t) => t.includes("payment")],
  [/\bsuspen\w*\b/i, (t) => t === "suspend_line"],
  [/\b(?:resum\w*|reactivat\w*)\b/i, (t) => t === "resume_line"],
  [/\broaming\b/i, (t) => t.endsWith("_roaming")],
  [/\b(?:refuel\w*|data top|top up|top-up)\b/i, (t) => t === "refuel_data"],
  // banking's discoverable tools (the agent reaches them through call_discoverable_agent_tool)
  [/\b(?:clos\w*|cancel\w*)\b/i, (t) => t.startsWith("close_")],
  [
    /\b(?:replac\w*|reissu\w*|new card|new one)\b/i,
    (t) => t.startsWith("order_replacement_") || t.startsWith("order_debit_card_"),
  ],
  [/\bdisput\w*/i, (t) => t.startsWith("file_") && t.includes("_dispute_")],
  [/\b(?:open|opening)\b/i, (t) => t.startsWith("open_bank_account_")],
  [/\bfreez\w*/i, (t) => t.startsWith("freeze_")],
  [/\b(?:transfer\w*|move money|fund\w*)\b/i, (t) => t.startsWith("transfer_funds_")],
];

export interface Candidate {
  readonly domain: string;
  readonly task_version: string;
  readonly task_id: string;
  readonly field: SourceField;
  readonly sentence: string;
  /** Code-point offsets of the sentence in its field, end exclusive. */
  readonly start: number;
  readonly end: number;
  readonly cues: readonly string[];
  /** Agent tools the sentence may concern (violations are assistant calls only). */
  readonly tools: readonly string[];
}

const STRUCTURED_FIELDS: readonly SourceField[] = [
  "reason_for_call",
  "known_info",
  "unknown_info",
  "task_instructions",
];

/** The fields of a task's scenario that hold text, in reading order. */
export function fieldsOf(task: Task): SourceField[] {
  return typeof task.user_scenario.instructions === "string" ? ["instructions"] : [...STRUCTURED_FIELDS];
}

export function cuesIn(sentence: string): string[] {
  return PROHIBITION_CUES.filter(([, re]) => re.test(sentence)).map(([label]) => label);
}

export function toolsHintedBy(sentence: string, domain: DomainDef): string[] {
  const names = [...domain.agentTools.tools.keys()];
  const hit = new Set<string>();
  for (const [re, matches] of TOOL_HINTS) {
    if (re.test(sentence)) for (const n of names) if (matches(n)) hit.add(n);
  }
  return names.filter((n) => hit.has(n));
}

/**
 * Phrases that mark a sentence as a possible task fact: an amount (a budget, a fee limit), a reason (why
 * the user wants something, which policies tell apart), a booking time (the 24-hour rule).
 */
const FACT_CUES: readonly (readonly [label: string, pattern: RegExp])[] = [
  ["amount", /\$\s?\d|\b\d+(?:\.\d+)?\s*(?:dollars|usd)\b/i],
  ["budget", /\b(?:budget|afford|willing to pay|up to|at most|no more than|less than|cheaper)\b/i],
  [
    "reason",
    /\b(?:because|reason|since you|so that|sick|ill|unwell|health\w*|weather|storm|emergency|by mistake|no longer need\w*|passed away|funeral|hospital\w*)\b/i,
  ],
  [
    "booking time",
    /\b(?:booked|booking|made the reservation|purchased)\b.*\b(?:yesterday|today|this morning|hours? ago|last night|just now)\b/i,
  ],
];

export function factCuesIn(sentence: string): string[] {
  return FACT_CUES.filter(([, re]) => re.test(sentence)).map(([label]) => label);
}

/** Candidate prohibitions (what the user does not want) or candidate facts (what the task states). */
export type CandidateKind = "prohibitions" | "facts";

export function scanTask(
  task: Task,
  domain: DomainDef,
  taskVersion: string,
  kind: CandidateKind = "prohibitions",
): Candidate[] {
  const out: Candidate[] = [];
  for (const field of fieldsOf(task)) {
    const text = instructionField(task, field);
    if (text === null) continue;
    for (const s of splitSentences(text)) {
      const cues = kind === "facts" ? factCuesIn(s.text) : cuesIn(s.text);
      if (cues.length === 0) continue;
      out.push({
        domain: domain.name,
        task_version: taskVersion,
        task_id: task.id,
        field,
        sentence: s.text,
        start: s.start,
        end: s.end,
        cues,
        tools: kind === "facts" ? [] : toolsHintedBy(s.text, domain),
      });
    }
  }
  return out;
}
