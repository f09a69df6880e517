/**
 * The structured grader as a registry value: its configuration, loading, and store/JSON projections.
 * Its grading code (`engine.ts`) is imported by `load`, when a run selects it.
 */
import type { FolderSource } from "../../util/layers.ts";
import { z } from "../../util/zod.ts";
import type { CorrectedVerdict } from "../corrections/grader.ts";
import { contentRefSchema, fileRef, folderRef } from "../fingerprint.ts";
import { defineGrader, type VerdictRecord } from "../grader.ts";
import { causesJson } from "../json.ts";
import type { Tau3Verdict } from "../tau3/evaluate.ts";
import type { LoadedStructured } from "./engine.ts";
import { FIELD_KINDS } from "./gate-names.ts";
import { structuredGatesSchema } from "./gates.ts";
import type { StructuredVerdict } from "./grade.ts";

export const structuredConfig = z.strictObject({
  /** The requirement fixtures folder and the sha256 of the fixtures in it. */
  requirements: contentRefSchema,
  /** The domain policy clauses folder (`policies/`) and the sha256 of its clause files. */
  policies: contentRefSchema,
  /** Reviewed hand-off label overrides, or null for the rule-derived labels. */
  handoff_overrides: contentRefSchema.nullable(),
  gate: structuredGatesSchema,
});
export type StructuredConfig = z.infer<typeof structuredConfig>;

/** What `loadRequirements` reads: fixtures (`.json` files not starting with `_`) and each domain's `_facts.json`. */
export const requirementsRef = (source: FolderSource) =>
  folderRef(source, (name) => name.endsWith(".json") && (!name.startsWith("_") || name === "_facts.json"));

export const policiesRef = (source: FolderSource) => folderRef(source, (name) => name.endsWith(".json"));

const record = (v: StructuredVerdict): VerdictRecord => ({
  pass: v.pass,
  reward: v.pass === null ? null : v.pass ? 1 : 0,
  dbMatch: v.db_match,
  notes: [],
  judgeFailure: null,
  components: [
    {
      name: "REQUIREMENTS",
      score: v.requirements.pass ? 1 : 0,
      inBasis: true,
      vacuous: v.requirements.checked.length === 0,
    },
    {
      name: "DELTA_GATE",
      score: v.causes.some((c) => c.gates && FIELD_KINDS.includes(c.kind)) ? 0 : 1,
      inBasis: true,
      vacuous: !v.delta_gate.ran,
    },
    {
      name: "POLICY_CLAUSES",
      score: v.clauses.some((f) => f.outcome === "broken") ? 0 : 1,
      inBasis: v.gates.policy_clauses,
      // No clause governed any call of the trajectory: nothing was checked.
      vacuous: v.clauses.length === 0,
    },
  ],
  causes: v.causes,
  coverage: v.coverage,
});

export const structuredGrader = defineGrader({
  id: "structured",
  // 7: the once_only_without_reminder policy rule (reported).
  version: "structured/7",
  label: "structured",
  description:
    "τ³ AND the user's typed requirements AND the domain policy clauses AND the licensed delta gate; policy rules, format errors, curated NL, consistency, user state and attempted violations gate when configured",
  config: structuredConfig,
  requires: ["tau3"],
  comparedWith: { baseline: "tau3", order: 0 },
  reads: ["tau3", "tau3_corrected"],
  configFrom: (c) => ({
    requirements: requirementsRef(c.requirementsDir),
    policies: policiesRef(c.policiesDir),
    handoff_overrides: c.handoffOverrides === null ? null : fileRef(c.handoffOverrides),
    gate: c.gate,
  }),
  // Both flip counts are reported: the strict delta gate is always stored beside it.
  companions: ["structured_strict"],
  checkSelection: (own, selected) =>
    own.gate.nl_curated && selected.tau3_corrected === undefined
      ? {
          path: ["gate", "nl_curated"],
          message: "gating on the curated NL list needs the corrections overlay (corrections on)",
        }
      : null,
  readsWriteJournal: true,
  load: async (config: StructuredConfig): Promise<LoadedStructured> => {
    const engine = await import("./engine.ts");
    return { ...engine.loadStructuredOptions(config), gradeStructured: engine.gradeStructured };
  },
  grade: (
    input,
    loaded,
    prior: { readonly tau3: Tau3Verdict; readonly tau3_corrected?: CorrectedVerdict },
  ): StructuredVerdict =>
    loaded.gradeStructured({
      ...input,
      tau3: prior.tau3,
      nlCurated: prior.tau3_corrected?.nlCurated ?? null,
      options: loaded,
    }),
  record,
  json: (v: StructuredVerdict) => ({
    pass: v.pass,
    causes: causesJson(v.causes),
    requirements: {
      pass: v.requirements.pass,
      fixture: v.requirements.fixture,
      checked: v.requirements.checked,
      facts: v.task_facts.map((f) => ({ id: f.id, name: f.name, value: f.value })),
      rejected_rules: v.requirements.rejected,
    },
    delta_gate: v.delta_gate.ran
      ? { pass: v.delta_gate.pass, in_footprint: v.delta_gate.inFootprint }
      : { pass: v.delta_gate.pass, note: v.delta_gate.note },
    transfer: v.transfer,
    // Clauses that cannot grade this domain and task set (none where every clause verifies): a variant's
    // policy without a clause's quote makes it not applicable.
    ...(v.rejected_clauses.length === 0
      ? {}
      : { rejected_clauses: v.rejected_clauses.map((p) => ({ clause: p.clauseId, message: p.message })) }),
    consistency: {
      status: v.consistency.status,
      note: v.consistency.note,
      task_users: v.consistency.taskUsers,
      conversation_users: v.consistency.conversationUsers,
    },
    coverage: v.coverage,
  }),
});
