/**
 * The structured grader under the seed's strict delta gate, stored beside it so both flip counts can be
 * reported: every DB field that differs from the gold end state outside the footprint fails, licensed,
 * the user's own or not. It derives from the structured verdict (nothing is graded twice) and stores
 * only the causes that fail it (where τ³ fails, τ³'s alone); the reported ones are the structured grader's.
 */
import { z } from "../../util/zod.ts";
import { defineGrader } from "../grader.ts";
import { causesJson } from "../json.ts";
import { FIELD_KINDS } from "./gate-names.ts";
import type { StructuredVerdict } from "./grade.ts";
import { type RegatedVerdict, regate, regatedRecord } from "./regated.ts";

/** The seed's strict delta gate: every differing DB field fails, licensed, mirrored or the user's own. */
export const strictVerdict = (v: StructuredVerdict): RegatedVerdict =>
  regate(v, (c) => FIELD_KINDS.includes(c.kind));

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
  grade: (_input, _loaded, prior: { readonly structured: StructuredVerdict }): RegatedVerdict =>
    strictVerdict(prior.structured),
  record: regatedRecord("DELTA_GATE_STRICT"),
  json: (v: RegatedVerdict) => ({ pass: v.pass, causes: causesJson(v.causes) }),
});
