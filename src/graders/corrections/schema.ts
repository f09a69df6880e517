/**
 * The corrections overlay (after the NeMo airline port): per-domain, versioned JSON that (1) drops
 * named gold actions that contradict the policy and (2) curates NL assertions. Every entry must
 * say why; an entry without a reason is rejected.
 */
import { readJsonFile } from "../../formats/zod-issues.ts";
import { z } from "../../util/zod.ts";
import { CorrectionsError } from "./folder.ts";

const reason = z.string().trim().min(1, "every correction needs a reason");

export const nlCurationSchema = z.strictObject({
  /** Upstream assertions kept as they are, by index. */
  adopt: z.array(z.number().int().min(0)).default([]),
  drop: z.array(z.strictObject({ index: z.number().int().min(0), reason })).default([]),
  /** The upstream assertion is wrong the other way round; `assertion` is the inverted text. */
  invert: z
    .array(z.strictObject({ index: z.number().int().min(0), assertion: z.string().min(1), reason }))
    .default([]),
  add: z.array(z.strictObject({ assertion: z.string().min(1), reason })).default([]),
});
export type NlCuration = z.infer<typeof nlCurationSchema>;

export const taskCorrectionSchema = z.strictObject({
  /** Task sets the correction applies to (`head`, `v0.2.0_f8de30c`, ...). */
  task_versions: z.array(z.string()).min(1),
  drop_actions: z.array(z.strictObject({ action_id: z.string(), reason })).default([]),
  nl_curation: nlCurationSchema.nullable().default(null),
});

export const correctionsFileSchema = z.strictObject({
  format_version: z.literal(1),
  domain: z.string(),
  /** Version of this overlay's content; bump on every change so verdicts can cite it. */
  version: z.string(),
  source: z.string(),
  tasks: z.record(z.string(), taskCorrectionSchema),
});
export type CorrectionsFile = z.infer<typeof correctionsFileSchema>;

export const loadCorrections = (path: string): CorrectionsFile =>
  readJsonFile(path, correctionsFileSchema, (m) => new CorrectionsError(m));
