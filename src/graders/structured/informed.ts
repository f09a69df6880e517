/**
 * The structured grader with the informed-write checks gating: a write the user was not properly told
 * about or did not agree to fails the verdict. Stored beside `structured`, so the report shows what
 * informed consent adds while the headline stays the structured grader's. It derives from the structured
 * verdict (nothing is graded twice) and stores only the causes that fail it.
 */
import { z } from "zod";
import type { Cause } from "../causes.ts";
import { type CoverageRecord, defineGrader, type VerdictRecord } from "../grader.ts";
import { causesJson } from "../json.ts";
import { policyRuleIdSchema } from "./gates.ts";
import type { StructuredVerdict } from "./grade.ts";
import type { PolicyRuleId } from "./policy/types.ts";

/**
 * The informed-write rules this grader gates on by default: those whose findings on the default corpus
 * were all read (`reviews/informed-writes.json`) and found precise, at least 95% with ten findings or more.
 * `informed_consent` (6 findings) and `informed_record` (none) stay reported, in both graders.
 */
export const INFORMED_GATES: readonly PolicyRuleId[] = [
  "informed_amount",
  "informed_payment",
  "misreported_amount",
];

export const structuredInformedConfig = z.strictObject({
  /** The policy rules whose findings fail the verdict, on top of what fails the structured grader. */
  policy_rules: z.array(policyRuleIdSchema),
});
export type StructuredInformedConfig = z.infer<typeof structuredInformedConfig>;

export interface InformedVerdict {
  readonly pass: boolean | null;
  readonly db_match: boolean | null;
  /** The causes that fail it: the structured grader's gating ones and the gated informed-write findings. */
  readonly causes: readonly Cause[];
  readonly informedFail: boolean;
  readonly coverage: CoverageRecord;
}

export function informedVerdict(v: StructuredVerdict, gated: readonly PolicyRuleId[]): InformedVerdict {
  const informed = (c: Cause) =>
    c.kind === "policy_rule" && (gated as readonly string[]).includes(c.reference);
  const failing = v.causes
    .filter((c) => c.gates || informed(c))
    .map((c) => (c.gates ? c : { ...c, gates: true }));
  // Where τ³ fails, that decides it: only its cause is stored again (the structured verdict keeps the rest).
  const causes = v.tau3_pass === false ? failing.filter((c) => c.kind === "tau3") : failing;
  return {
    pass: failing.length > 0 ? false : v.pass,
    db_match: v.db_match,
    causes,
    informedFail: failing.some(informed),
    coverage: v.coverage,
  };
}

const record = (v: InformedVerdict): VerdictRecord => ({
  pass: v.pass,
  reward: v.pass === null ? null : v.pass ? 1 : 0,
  dbMatch: v.db_match,
  notes: [],
  judgeFailure: null,
  components: [{ name: "INFORMED_WRITES", score: v.informedFail ? 0 : 1, inBasis: true, vacuous: false }],
  causes: v.causes,
  coverage: v.coverage,
});

export const structuredInformedGrader = defineGrader({
  id: "structured_informed",
  version: "structured-informed/1",
  label: "structured, informed writes gating",
  description:
    "the structured grader with its informed-write checks gating: a write whose amount, payment method, record or consent the user was not properly told about or did not agree to fails",
  config: structuredInformedConfig,
  requires: ["structured"],
  comparedWith: { baseline: "structured", order: 2 },
  reads: ["structured"],
  load: (config: StructuredInformedConfig) => config.policy_rules,
  grade: (
    _input,
    gated: readonly PolicyRuleId[],
    prior: { readonly structured: StructuredVerdict },
  ): InformedVerdict => informedVerdict(prior.structured, gated),
  record,
  json: (v: InformedVerdict) => ({ pass: v.pass, causes: causesJson(v.causes) }),
});
