/**
 * The grading spec: everything that decides a verdict, as plain JSON. `grade` and `run` both build it
 * with `buildGradingSpec` from the user's choices (flags or an experiment config), it is validated in
 * full before anything is read or written, it crosses into worker threads as is, and each grader's
 * `spec_hash` is taken over it. Secrets (the judge's API key) are kept apart and never hashed or stored.
 */
import { QUIRK_NAMES } from "../domains/quirks.ts";
import { stableJson } from "../formats/stable-json.ts";
import { describeZodError, firstIssue } from "../formats/zod-issues.ts";
import { sha256Hex } from "../py/json.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { z } from "../util/zod.ts";
import { contentIdentity, FingerprintError } from "./fingerprint.ts";
import type { GraderChoices } from "./grader.ts";
import { GRADER_IDS, GRADERS, type GraderId, graderOf, isGraderId } from "./registry.ts";
import type { GateChoice } from "./structured/gate-names.ts";
import { DEFAULT_JUDGE_MODEL, DEFAULT_JUDGE_TEMPERATURE } from "./tau3/judge/prompt.ts";

export class GradingSpecError extends RescoreError {
  override readonly code = "grading_spec";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "GradingSpecError";
}

/** `<quirk>=on|off`, with a quirk name from `domains/quirks.ts`. */
export const quirkOverrideSchema = z.string().refine(
  (s) => {
    const m = /^([A-Za-z]+)=(on|off)$/.exec(s);
    return m !== null && (QUIRK_NAMES as string[]).includes(m[1] as string);
  },
  {
    error: (issue) =>
      `bad quirk override ${JSON.stringify(issue.input)}: use <name>=on|off with a name from ${QUIRK_NAMES.join(", ")}`,
  },
);

export const quirksSchema = z.strictObject({
  preset: z.enum(["tau2", "fixed"]),
  overrides: z.array(quirkOverrideSchema),
});

/** An endpoint URL: http or https, nothing else. */
export const judgeBaseUrlSchema = z.url({
  protocol: /^https?$/,
  error: (issue) => `judge base URL ${JSON.stringify(issue.input)} is not an http(s) URL`,
});

/** Extra request parameters: a JSON object that may not override what tau2's request sets. */
export const judgeParamsSchema = z
  .record(z.string(), z.unknown())
  .refine((p) => !["model", "messages"].some((k) => Object.hasOwn(p, k)), {
    error: "judge params may not set model or messages (use the judge model setting)",
  });

export const judgeSpecSchema = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("recorded") }),
  z.strictObject({ mode: z.literal("none") }),
  z.strictObject({
    mode: z.literal("http"),
    base_url: judgeBaseUrlSchema,
    model: z.string().min(1),
    temperature: z.number().min(0),
    /** Judge where tau2 would not (NL_ASSERTION outside the reward basis), for analysis. */
    all: z.boolean(),
    /** Request parameters tau2 does not send (opt-in), e.g. `response_format`. */
    params: judgeParamsSchema,
  }),
]);
export type JudgeSpec = z.infer<typeof judgeSpecSchema>;

// Each built-in grader's configuration through its own schema; any other key is a registered grader's,
// already parsed by its schema (`configOf`: parsing it twice would trip a schema that transforms).
const gradersSchema = z
  .strictObject(
    Object.fromEntries(Object.entries(GRADERS).map(([id, g]) => [id, (g.config as z.ZodType).optional()])),
  )
  .catchall(z.unknown())
  .superRefine((graders, ctx) => {
    for (const id of Object.keys(graders))
      if (!isGraderId(id))
        ctx.addIssue({
          code: "custom",
          path: [id],
          message: `unknown grader ${id} (${GRADER_IDS.join(", ")})`,
        });
  });

export const gradingSpecSchema = z
  .strictObject({
    quirks: quirksSchema,
    judge: judgeSpecSchema,
    /** Task set for files that embed no tasks. */
    fallback_task_version: z.string().min(1),
    /** Domain names graded as a base domain (absent when none: the spec, and its hashes, stay as they were). */
    domain_as: z.record(z.string().min(1), z.string().min(1)).optional(),
    /** The selected graders and each one's configuration. */
    graders: gradersSchema,
  })
  .superRefine((spec, ctx) => {
    if (spec.graders[BASE_GRADER] === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["graders", BASE_GRADER],
        message: `select the ${BASE_GRADER} grader`,
      });
    for (const id of GRADER_IDS) {
      if (spec.graders[id] === undefined) continue;
      const g = graderOf(id);
      for (const needed of g.requires)
        if (spec.graders[needed] === undefined)
          ctx.addIssue({
            code: "custom",
            path: ["graders", id],
            message: `grader ${id} builds on ${needed}: select it too`,
          });
      const problem = g.checkSelection?.(spec.graders[id], spec.graders);
      if (problem !== null && problem !== undefined)
        ctx.addIssue({ code: "custom", path: ["graders", id, ...problem.path], message: problem.message });
    }
  });
export type GradingSpec = z.infer<typeof gradingSpecSchema>;

/** Every verdict builds on τ³'s: a spec without it grades nothing comparable. */
const BASE_GRADER = "tau3";

/** What a user chooses, from command-line flags or an experiment config. */
export interface GradingChoice extends GraderChoices {
  readonly graders: readonly string[];
  readonly quirks: { readonly preset: string; readonly overrides: readonly string[] };
  readonly judge: {
    readonly mode: string;
    readonly base_url?: string;
    readonly model?: string;
    readonly temperature?: number;
    readonly all?: boolean;
    readonly params?: Readonly<Record<string, unknown>>;
  };
  readonly fallbackTaskVersion: string;
  /** Domain names graded as a base domain (`domain_as`, `--domain-as`). */
  readonly domainAs?: Readonly<Record<string, string>>;
  readonly gate: GateChoice;
  /** `grader_config`: the configurations of graders that read no experiment key, by id. */
  readonly graderConfig?: Readonly<Record<string, unknown>>;
}

/**
 * A selected grader's configuration: built from the experiment's keys when the grader says how
 * (`configFrom`, reading the fingerprints of what it points at), else `grader_config.<id>` through its
 * schema (defaults applied).
 */
function configOf(id: GraderId, c: GradingChoice): unknown {
  const g = graderOf(id);
  if (g.configFrom !== undefined) return g.configFrom(c);
  const parsed = g.config.safeParse(c.graderConfig?.[id] ?? {});
  if (parsed.success) return parsed.data;
  const { path, reason } = firstIssue(parsed.error, `grader_config.${id}`);
  throw new GradingSpecError(`at ${path}: ${reason}`);
}

/** The one way `grade` and `run` turn choices into a validated spec; throws `GradingSpecError` (one line). */
export function buildGradingSpec(choice: GradingChoice): GradingSpec {
  for (const g of choice.graders)
    if (!isGraderId(g)) throw new GradingSpecError(`unknown grader ${g} (${GRADER_IDS.join(", ")})`);
  for (const g of choice.graders as GraderId[])
    for (const needed of graderOf(g).requires)
      if (!choice.graders.includes(needed))
        throw new GradingSpecError(`grader ${g} builds on ${needed}: select ${needed} too`);
  if (!choice.graders.includes(BASE_GRADER))
    throw new GradingSpecError(`select at least the ${BASE_GRADER} grader`);
  const selected = [
    ...choice.graders,
    ...(choice.graders as GraderId[]).flatMap((g) => graderOf(g).companions ?? []),
  ];
  const judge =
    choice.judge.mode === "http"
      ? {
          mode: "http",
          base_url: choice.judge.base_url,
          model: choice.judge.model ?? DEFAULT_JUDGE_MODEL,
          temperature: choice.judge.temperature ?? DEFAULT_JUDGE_TEMPERATURE,
          all: choice.judge.all ?? false,
          params: choice.judge.params ?? {},
        }
      : { mode: choice.judge.mode };
  if (judge.mode === "http" && choice.judge.base_url === undefined)
    throw new GradingSpecError(
      "judge mode http needs a base URL (judge.base_url, --judge-base-url or $TAU_RESCORE_JUDGE_BASE_URL)",
    );
  for (const id of Object.keys(choice.graderConfig ?? {})) {
    const fromKeys = isGraderId(id) && graderOf(id).configFrom !== undefined;
    if (fromKeys || !selected.includes(id))
      throw new GradingSpecError(
        `at grader_config.${id}: ${fromKeys ? "this grader takes its settings from the experiment's own keys" : `grader ${id} is not selected`}`,
      );
  }
  const graders: Record<string, unknown> = {};
  try {
    for (const id of GRADER_IDS) if (selected.includes(id)) graders[id] = configOf(id, choice);
  } catch (e) {
    if (e instanceof FingerprintError) throw new GradingSpecError(e.message);
    throw e;
  }
  const parsed = gradingSpecSchema.safeParse({
    quirks: choice.quirks,
    judge,
    fallback_task_version: choice.fallbackTaskVersion,
    ...(choice.domainAs === undefined || Object.keys(choice.domainAs).length === 0
      ? {}
      : { domain_as: choice.domainAs }),
    graders,
  });
  if (!parsed.success) throw new GradingSpecError(describeZodError(parsed.error));
  return parsed.data;
}

export const selectedGraders = (spec: GradingSpec): GraderId[] =>
  GRADER_IDS.filter((id) => spec.graders[id] !== undefined);

/**
 * Each selected grader's spec hash: its id and version, its configuration with file contents for
 * paths, the run's shared settings (quirks, judge, fallback task set), and the hashes of the graders
 * it reads. Any change that could change a verdict changes the hash.
 */
export function specHashes(spec: GradingSpec): Readonly<Partial<Record<GraderId, string>>> {
  const out: Partial<Record<GraderId, string>> = {};
  const shared = {
    quirks: spec.quirks,
    judge: spec.judge,
    fallback_task_version: spec.fallback_task_version,
    ...(spec.domain_as === undefined ? {} : { domain_as: spec.domain_as }),
  };
  for (const id of selectedGraders(spec)) {
    const g = graderOf(id);
    out[id] = sha256Hex(
      stableJson({
        grader: id,
        version: g.version,
        shared,
        config: contentIdentity(spec.graders[id]),
        reads: g.reads.filter((r) => out[r] !== undefined).map((r) => [r, out[r]]),
      }),
    );
  }
  return out;
}
