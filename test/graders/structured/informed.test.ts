/**
 * `structured_informed`, derived from the structured verdict: the informed-write findings it gates fail it,
 * the ones it does not stay reported; where τ³ fails, only τ³'s cause is stored again.
 */
import { describe, expect, it } from "vitest";
import { type Cause, cause, causeLabel } from "../../../src/graders/causes.ts";
import type { StructuredVerdict } from "../../../src/graders/structured/grade.ts";
import { INFORMED_GATES, informedVerdict } from "../../../src/graders/structured/informed.ts";

const reported = (rule: string): Cause => cause("policy_rule", rule, { gates: false, message: rule });
const verdict = (causes: Cause[], tau3Pass = true): StructuredVerdict =>
  ({
    pass: causes.some((c) => c.gates) ? false : tau3Pass,
    tau3_pass: tau3Pass,
    db_match: true,
    causes,
    coverage: { applies: [], checked: [], notes: [] },
  }) as unknown as StructuredVerdict;

describe("structured_informed", () => {
  it("gates the precise informed-write rules by default, and only them", () => {
    expect(INFORMED_GATES).toEqual(["informed_amount", "informed_payment", "misreported_amount"]);
  });

  it("fails a verdict the structured grader passes with a gated finding, storing it as gating", () => {
    const v = informedVerdict(
      verdict([reported("informed_amount"), reported("informed_consent")]),
      INFORMED_GATES,
    );
    expect(v.pass).toBe(false);
    expect(v.ownFail).toBe(true);
    expect(v.causes.map((c) => [causeLabel(c), c.gates])).toEqual([["policy_rule:informed_amount", true]]);
  });

  it("passes what the structured grader passes when only ungated rules report", () => {
    const v = informedVerdict(
      verdict([reported("informed_consent"), reported("unneeded_transfer")]),
      INFORMED_GATES,
    );
    expect(v).toMatchObject({ pass: true, causes: [], ownFail: false });
  });

  it("keeps the structured grader's own gating causes, and where τ³ fails stores τ³'s alone", () => {
    const tau3 = cause("tau3", "DB", { gates: true, message: "τ³ fails" });
    const v = informedVerdict(verdict([tau3, reported("informed_payment")], false), INFORMED_GATES);
    expect(v.pass).toBe(false);
    expect(v.causes.map(causeLabel)).toEqual(["tau3:DB"]);
    expect(v.ownFail).toBe(true);
  });
});
