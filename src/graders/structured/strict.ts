/**
 * The structured grader under the seed's strict delta gate, stored beside it so both flip counts can be
 * reported: every DB field that differs from the gold end state outside the footprint fails, licensed,
 * the user's own or not. It derives from the structured verdict (nothing is graded twice) and stores
 * only the causes that fail it (where τ³ fails, τ³'s alone); the reported ones are the structured grader's.
 */
import { z } from "zod";
import type { Cause } from "../causes.ts";
import { type CoverageRecord, defineGrader, type VerdictRecord } from "../grader.ts";
import { causesJson } from "../json.ts";
import { FIELD_KINDS } from "./gate-names.ts";
import type { StructuredVerdict } from "./grade.ts";

export interface StrictVerdict {
  readonly pass: boolean | null;
  readonly db_match: boolean | null;
  /** The causes that fail it (the structured grader's gating ones, and every field). */
  readonly causes: readonly Cause[];
  readonly fieldsFail: boolean;
  /** The structured verdict's: the strict gate checks against the same fixtures and clauses. */
  readonly coverage: CoverageRecord;
}

/** The seed's strict delta gate: every differing DB field fails, licensed, mirrored or the user's own. */
export function strictCauses(v: StructuredVerdict): Cause[] {
  return v.causes.map((c) => (FIELD_KINDS.includes(c.kind) && !c.gates ? { ...c, gates: true } : c));
}

export function strictVerdict(v: StructuredVerdict): StrictVerdict {
  const failing = strictCauses(v).filter((c) => c.gates);
  // Where τ³ fails, that decides both gates alike: only its cause is stored again (the structured
  // verdict keeps the rest), which spares a copy of every field of every failing simulation.
  const causes = v.tau3_pass === false ? failing.filter((c) => c.kind === "tau3") : failing;
  return {
    pass: failing.length > 0 ? false : v.pass,
    db_match: v.db_match,
    causes,
    fieldsFail: failing.some((c) => FIELD_KINDS.includes(c.kind)),
    coverage: v.coverage,
  };
}

const record = (v: StrictVerdict): VerdictRecord => ({
  pass: v.pass,
  reward: v.pass === null ? null : v.pass ? 1 : 0,
  dbMatch: v.db_match,
  notes: [],
  judgeFailure: null,
  components: [{ name: "DELTA_GATE_STRICT", score: v.fieldsFail ? 0 : 1, inBasis: true, vacuous: false }],
  causes: v.causes,
  coverage: v.coverage,
});

export const structuredStrictGrader = defineGrader({
  id: "structured_strict",
  // 2: follows structured/6 (no reference solution, acceptable outcomes).
  version: "structured-strict/2",
  label: "structured, strict gate",
  description: "the structured grader with the seed's strict delta gate: every off-footprint DB field fails",
  config: z.strictObject({}),
  requires: ["structured"],
  comparedWith: { baseline: "structured", order: 1 },
  reads: ["structured"],
  load: () => null,
  grade: (_input, _loaded, prior: { readonly structured: StructuredVerdict }): StrictVerdict =>
    strictVerdict(prior.structured),
  record,
  json: (v: StrictVerdict) => ({ pass: v.pass, causes: causesJson(v.causes) }),
});
