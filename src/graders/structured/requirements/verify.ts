/** Verification of a fixture against the exact task it will grade. A rejected rule never grades. */

import type { Toolkit } from "../../../domains/toolkit.ts";
import type { Task } from "../../../formats/model.ts";
import { instructionField, locateQuote, numbersWrittenIn } from "./quote.ts";
import {
  type ActionPrecondition,
  type ChargeCap,
  type FactVocabulary,
  type Permission,
  type RequirementFixture,
  SUGGESTED_KEY,
  type TaskFact,
} from "./schema.ts";

export interface VerifiedRule {
  readonly rule: ActionPrecondition;
  /** Code-point offsets of the quote in its field. */
  readonly quoteStart: number;
  readonly quoteEnd: number;
}

export interface RuleProblem {
  readonly fixture: string;
  readonly ruleId: string;
  readonly message: string;
}

export interface VerifiedPermission {
  readonly permission: Permission;
  readonly quoteStart: number;
  readonly quoteEnd: number;
}

/** A task fact whose quote is verbatim in the task, of a name and type its domain's vocabulary knows. */
export interface VerifiedFact {
  readonly fact: TaskFact;
  readonly quoteStart: number;
  readonly quoteEnd: number;
}

/** A charge cap whose fact is a verified number fact of the same fixture. */
export interface VerifiedCap {
  readonly cap: ChargeCap;
  readonly fact: VerifiedFact;
}

export interface Verification {
  /** Prohibitions whose quote is verbatim in the task. */
  readonly verified: readonly VerifiedRule[];
  readonly permissions: readonly VerifiedPermission[];
  readonly facts: readonly VerifiedFact[];
  readonly caps: readonly VerifiedCap[];
  readonly problems: readonly RuleProblem[];
}

/** The task id of a fixture that applies to every task of its version whose text holds its quotes. */
export const EVERY_TASK_ID = "*";

export interface ToolkitInfo {
  readonly agentTools: Toolkit;
  readonly userTools?: Toolkit;
}

/**
 * Checks each rule's quote (verbatim, in its named field) and that its action is a real tool. A fixture
 * for every task (`*`) applies a rule only where its quote is; elsewhere the rule is silent, not wrong.
 */
export function verifyFixture(
  fixturePath: string,
  fixture: RequirementFixture,
  task: Task,
  toolkits: ToolkitInfo,
  vocabulary: FactVocabulary = {},
): Verification {
  const verified: VerifiedRule[] = [];
  const permissions: VerifiedPermission[] = [];
  const problems: RuleProblem[] = [];
  const facts = verifyFacts(fixturePath, fixture, task, vocabulary, problems);
  const caps = verifyCaps(fixturePath, fixture, toolkits, facts, problems);
  const seen = new Set<string>();
  const every = fixture.task_id === EVERY_TASK_ID;
  const reqs = fixture.user_preflight_requirements;
  const rules: (ActionPrecondition | Permission)[] = [
    ...(reqs.action_preconditions as ActionPrecondition[]),
    ...(reqs.permissions as Permission[]),
  ];
  rules.forEach((rule, i) => {
    const isPermission = i >= reqs.action_preconditions.length;
    const fail = (message: string) => problems.push({ fixture: fixturePath, ruleId: rule.id, message });
    if (!every && task.id !== fixture.task_id) fail(`fixture is for task ${fixture.task_id}, not ${task.id}`);
    if (seen.has(rule.id)) fail(`duplicate rule id ${rule.id}`);
    seen.add(rule.id);
    // A scaffold's drafts say TODO until an author edits them; unedited, they must not be enforced.
    for (const [field, value] of [
      ["rule", rule.rule],
      ["action", rule.action],
      ["source_quote", rule.source_quote],
    ])
      if (/\bTODO\b/.test(value ?? ""))
        fail(`unedited scaffold: ${field} still reads ${JSON.stringify(value)}`);
    if (!toolkits.agentTools.tools.has(rule.action) && !toolkits.userTools?.tools.has(rule.action)) {
      fail(`action ${rule.action} is not a tool of the ${fixture.domain} toolkit`);
    }
    const text = instructionField(task, rule.source_field);
    // A rule for every task is silent where its quote is not: no closest-text search for the message.
    if (every && !(text ?? "").includes(rule.source_quote)) return;
    const loc = locateQuote(text, rule.source_quote);
    if (!loc.found) {
      const closest =
        loc.closest === null
          ? `the task has no ${rule.source_field} field`
          : `closest text: ${JSON.stringify(loc.closest)}`;
      fail(`source_quote not found verbatim in ${rule.source_field} of task ${task.id}; ${closest}`);
      return;
    }
    if (problems.some((p) => p.ruleId === rule.id)) return;
    if (isPermission)
      permissions.push({ permission: rule as Permission, quoteStart: loc.start, quoteEnd: loc.end });
    else verified.push({ rule: rule as ActionPrecondition, quoteStart: loc.start, quoteEnd: loc.end });
  });
  return { verified, permissions, facts, caps, problems };
}

/** A quote checked where a rule's is: verbatim in its field (silent in a task without it, for `*`). */
function placeQuote(
  task: Task,
  field: TaskFact["source_field"],
  quote: string,
  every: boolean,
  fail: (message: string) => void,
): { start: number; end: number } | null {
  const text = instructionField(task, field);
  if (every && !(text ?? "").includes(quote)) return null;
  const loc = locateQuote(text, quote);
  if (loc.found) return { start: loc.start, end: loc.end };
  const closest =
    loc.closest === null ? `the task has no ${field} field` : `closest text: ${JSON.stringify(loc.closest)}`;
  fail(`source_quote not found verbatim in ${field} of task ${task.id}; ${closest}`);
  return null;
}

/** The problem of a fact still marked as a suggestion: the JSON path, and what keeping or deleting it takes. */
function suggestionMessage(index: number): string {
  return `task_facts[${index}] is still a suggestion of requirements new: keep it (check it, then delete its ${SUGGESTED_KEY} key) or delete the entry`;
}

/**
 * Each fact: a name and type the vocabulary knows, an enum value it lists, a number its quote writes,
 * one fact per name, its quote verbatim.
 */
function verifyFacts(
  fixturePath: string,
  fixture: RequirementFixture,
  task: Task,
  vocabulary: FactVocabulary,
  problems: RuleProblem[],
): VerifiedFact[] {
  const out: VerifiedFact[] = [];
  const names = new Set<string>();
  const every = fixture.task_id === EVERY_TASK_ID;
  fixture.task_facts.forEach((fact, index) => {
    const before = problems.length;
    const fail = (message: string) => problems.push({ fixture: fixturePath, ruleId: fact.id, message });
    if (!every && task.id !== fixture.task_id) fail(`fixture is for task ${fixture.task_id}, not ${task.id}`);
    // A suggestion of `requirements new` is the scanner's reading, not the author's: it never states a fact.
    if (fact[SUGGESTED_KEY] !== undefined) {
      fail(suggestionMessage(index));
      return;
    }
    for (const [field, value] of [
      ["source_quote", fact.source_quote],
      ["value", fact.value],
    ] as const)
      if (typeof value === "string" && /\bTODO\b/.test(value))
        fail(`unedited scaffold: ${field} still reads ${JSON.stringify(value)}`);
    const known = Object.hasOwn(vocabulary, fact.name) ? vocabulary[fact.name] : undefined;
    if (known === undefined)
      fail(
        `fact ${fact.name} is not in the ${fixture.domain} fact vocabulary (${Object.keys(vocabulary).join(", ") || "none"})`,
      );
    else if (known.type !== fact.type) fail(`fact ${fact.name} is a ${known.type}, not a ${fact.type}`);
    else if (known.type === "enum" && !known.values.includes(String(fact.value)))
      fail(`${JSON.stringify(fact.value)} is not a value of ${fact.name} (${known.values.join(", ")})`);
    // A number the quote does not write is the author's reading, not the user's words (1e308 for "$200").
    if (typeof fact.value === "number") {
      const written = numbersWrittenIn(fact.source_quote);
      if (!written.includes(fact.value))
        fail(
          `task_facts[${index}].value: ${fact.value} is not written in its source_quote (it writes ${written.join(", ") || "no number"})`,
        );
    }
    if (names.has(fact.name)) fail(`a second fact named ${fact.name}`);
    names.add(fact.name);
    const at = placeQuote(task, fact.source_field, fact.source_quote, every, fail);
    if (at !== null && problems.length === before) out.push({ fact, quoteStart: at.start, quoteEnd: at.end });
  });
  return out;
}

/** Each cap: tools of the toolkit, and a verified number fact of the same fixture (silent when that fact is). */
function verifyCaps(
  fixturePath: string,
  fixture: RequirementFixture,
  toolkits: ToolkitInfo,
  facts: readonly VerifiedFact[],
  problems: RuleProblem[],
): VerifiedCap[] {
  const out: VerifiedCap[] = [];
  for (const cap of fixture.user_preflight_requirements.charge_caps) {
    const fail = (message: string) => problems.push({ fixture: fixturePath, ruleId: cap.id, message });
    const unknown = (cap.tools ?? []).filter(
      (t) => !toolkits.agentTools.tools.has(t) && !toolkits.userTools?.tools.has(t),
    );
    if (unknown.length > 0)
      fail(`tools ${unknown.join(", ")} are not tools of the ${fixture.domain} toolkit`);
    const declared = fixture.task_facts.find((f) => f.name === cap.cap.fact);
    if (declared === undefined) fail(`the cap reads fact ${cap.cap.fact}, which the fixture does not state`);
    else if (declared.type !== "number")
      fail(`the cap reads fact ${cap.cap.fact}, a ${declared.type}, not a number`);
    const fact = facts.find((f) => f.fact.name === cap.cap.fact);
    if (unknown.length === 0 && declared?.type === "number" && fact !== undefined) out.push({ cap, fact });
  }
  return out;
}
