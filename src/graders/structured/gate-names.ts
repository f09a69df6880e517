/**
 * The structured grader's gates: what fails its verdict beyond τ³, requirements and unlicensed writes
 * (those always gate). Declared here once, as plain data so `--help` lists them without loading the
 * grader; `gates.ts` builds the schema that the grading spec, the grader's options, the experiment
 * config's `gate` key and `grade`'s flags derive from. The key order is the stored config's order.
 */
import type { CauseKind } from "../causes.ts";

/** Each on/off gate with its default. */
export const SWITCH_GATES = {
  /** Malformed agent messages (unclosed code fences, raw tool-call markup, ...) fail the verdict. */
  format_errors: false,
  /** Fail when the curated NL list (corrections overlay) is judged and not met; needs the overlay. */
  nl_curated: false,
  /** Fail a simulation whose conversation is about another task's users. */
  consistency: false,
  /** Fail where τ³ scored a degenerate live-judge reply (`degenerate_judge_reply`), as tau2 scores it. */
  degenerate_judge: false,
  /** Broken domain policy clauses fail the verdict (`--policy-clauses`). */
  policy_clauses: true,
  /** Changes to the user's own device and state made through the user's own tools fail it. */
  user_state: false,
  /** A call that would have broken a requirement or clause, but failed or changed nothing, fails it. */
  attempted_violation: false,
} as const;
export type SwitchGate = keyof typeof SWITCH_GATES;

/**
 * `licensed` (default): an off-reference write fails unless a task permission or policy clause
 * licensed it; `strict`: every off-footprint field fails (the strict gate is stored beside it either way).
 */
export const DELTA_MODES = ["licensed", "strict"] as const;
export type DeltaMode = (typeof DELTA_MODES)[number];
export const DEFAULT_DELTA_MODE: DeltaMode = "licensed";

/** The switches `--gate` names besides policy rule ids: those off by default. */
export const GATE_WORDS: readonly SwitchGate[] = (Object.keys(SWITCH_GATES) as SwitchGate[]).filter(
  (k) => !SWITCH_GATES[k],
);

/** Gates as a user states them, before validation (policy rule ids and the delta mode unchecked). */
export type GateChoice = { readonly policy_rules: readonly string[]; readonly delta: string } & {
  readonly [K in SwitchGate]: boolean;
};

/** The gates a command line states: `--gate` words and policy rule ids, clauses on or off, delta mode. */
export function gatesFromWords(words: readonly string[], policyClauses: boolean, delta: string): GateChoice {
  const isWord = (w: string) => (GATE_WORDS as readonly string[]).includes(w);
  const switches = Object.fromEntries(GATE_WORDS.map((w) => [w, words.includes(w)]));
  return {
    policy_rules: words.filter((w) => !isWord(w)),
    ...(switches as Record<SwitchGate, boolean>),
    policy_clauses: policyClauses,
    delta,
  };
}

/** The causes a DB field gives (a write, licensed or not, or a change to the user's own state): the strict gate fails them all. */
export const FIELD_KINDS: readonly CauseKind[] = ["unlicensed_write", "licensed_write", "user_state"];
