/**
 * A grader derived from the structured verdict by letting more of its causes gate (the strict delta gate,
 * the informed-write checks): nothing is graded twice. It stores only the causes that fail it, and where
 * τ³ fails only τ³'s, which decides it (the structured verdict keeps the rest).
 */
import type { Cause } from "../causes.ts";
import type { CoverageRecord, VerdictRecord } from "../grader.ts";
import type { StructuredVerdict } from "./grade.ts";

export interface RegatedVerdict {
  readonly pass: boolean | null;
  readonly db_match: boolean | null;
  /** The causes that fail it: the structured grader's gating ones and those it lets gate too. */
  readonly causes: readonly Cause[];
  /** Whether a cause it lets gate fails it (its own component scores 0). */
  readonly ownFail: boolean;
  /** The structured verdict's: it checks against the same fixtures and clauses. */
  readonly coverage: CoverageRecord;
}

export function regate(v: StructuredVerdict, gatesToo: (c: Cause) => boolean): RegatedVerdict {
  const failing = v.causes
    .filter((c) => c.gates || gatesToo(c))
    .map((c) => (c.gates ? c : { ...c, gates: true }));
  return {
    pass: failing.length > 0 ? false : v.pass,
    db_match: v.db_match,
    causes: v.tau3_pass === false ? failing.filter((c) => c.kind === "tau3") : failing,
    ownFail: failing.some(gatesToo),
    coverage: v.coverage,
  };
}

/** The store's record of a regated verdict: one component, named for what it adds. */
export const regatedRecord =
  (component: string) =>
  (v: RegatedVerdict): VerdictRecord => ({
    pass: v.pass,
    reward: v.pass === null ? null : v.pass ? 1 : 0,
    dbMatch: v.db_match,
    notes: [],
    judgeFailure: null,
    components: [{ name: component, score: v.ownFail ? 0 : 1, inBasis: true, vacuous: false }],
    causes: v.causes,
    coverage: v.coverage,
  });
