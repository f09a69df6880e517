/**
 * The grading spec: everything that decides a verdict, as plain JSON. `grade` and `run` both build it
 * with `buildGradingSpec` from the user's choices (flags or an experiment config), it is validated in
 * full before anything is read or written, it crosses into worker threads as is, and each grader's
 * `spec_hash` is taken over it. Secrets (the judge's API key) are kept apart and never hashed or stored.
 */
import { z } from "zod";
import { QUIRK_NAMES, type Quirks, resolveQuirks } from "../domains/quirks.ts";
import { stableJson } from "../formats/stable-json.ts";
import { describeZodError, firstIssue } from "../formats/zod-issues.ts";
import { sha256Hex } from "../py/json.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import type { FolderSource } from "../util/layers.ts";
import { CorrectionsError } from "./corrections/folder.ts";
import { overlaysRef } from "./corrections/grader.ts";
import { contentIdentity, FingerprintError, fileRef } from "./fingerprint.ts";
import { thrownText } from "./module-checks.ts";
import {
  type BuiltInGraderId,
  GRADER_IDS,
  GRADERS,
  type GraderId,
  graderModuleLabel,
  graderOf,
  isBuiltInGraderId,
  isGraderId,
  type LoadedGraders,
} from "./registry.ts";
import type { GateChoice } from "./structured/gate-names.ts";
import { policiesRef, requirementsRef } from "./structured/grader.ts";
import { HandoffOverridesError } from "./structured/handoff.ts";
import { INFORMED_GATES } from "./structured/informed.ts";
import type { JudgmentCache } from "./tau3/judge/cache.ts";
import { DEFAULT_JUDGE_MODEL, DEFAULT_JUDGE_TEMPERATURE } from "./tau3/judge/prompt.ts";
import { type NlJudge, noJudge, recordedJudge } from "./tau3/nl.ts";

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

// Any other key is a registered grader's configuration, already parsed by its own schema
// (`registeredConfig`: parsing it twice would trip a schema that transforms).
const gradersSchema = z
  .strictObject({
    tau3: GRADERS.tau3.config,
    tau3_corrected: GRADERS.tau3_corrected.config.optional(),
    structured: GRADERS.structured.config.optional(),
    structured_strict: GRADERS.structured_strict.config.optional(),
    structured_informed: GRADERS.structured_informed.config.optional(),
  } satisfies { [K in BuiltInGraderId]: z.ZodType })
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
    for (const id of GRADER_IDS) {
      if (spec.graders[id] === undefined) continue;
      for (const needed of graderOf(id).requires)
        if (spec.graders[needed] === undefined)
          ctx.addIssue({
            code: "custom",
            path: ["graders", id],
            message: `grader ${id} builds on ${needed}: select it too`,
          });
    }
    if (spec.graders.structured?.gate.nl_curated === true && spec.graders.tau3_corrected === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["graders", "structured", "gate", "nl_curated"],
        message: "gating on the curated NL list needs the corrections overlay (corrections on)",
      });
  });
export type GradingSpec = z.infer<typeof gradingSpecSchema>;

/** What a user chooses, from command-line flags or an experiment config. */
export interface GradingChoice {
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
  /** A folder, or a project's folder over the curated set (`layerOver`). */
  readonly requirementsDir: FolderSource;
  readonly policiesDir: FolderSource;
  readonly correctionsDir: FolderSource;
  readonly handoffOverrides: string | null;
  readonly gate: GateChoice;
  /** Registered graders' configurations by id (built-in graders take theirs from the fields above). */
  readonly graderConfig?: Readonly<Record<string, unknown>>;
}

/** Builds each selected grader's configuration, reading the fingerprints of what it points at. */
const CONFIG_BUILDERS: { readonly [K in BuiltInGraderId]: (c: GradingChoice) => unknown } = {
  tau3: () => ({}),
  tau3_corrected: (c) => ({ overlays: overlaysRef(c.correctionsDir) }),
  structured: (c) => ({
    requirements: requirementsRef(c.requirementsDir),
    policies: policiesRef(c.policiesDir),
    handoff_overrides: c.handoffOverrides === null ? null : fileRef(c.handoffOverrides),
    gate: c.gate,
  }),
  structured_strict: () => ({}),
  structured_informed: () => ({ policy_rules: [...INFORMED_GATES] }),
};

/** A registered grader's configuration: what `grader_config` gives it, through its schema (defaults applied). */
function registeredConfig(id: GraderId, c: GradingChoice): unknown {
  const parsed = graderOf(id).config.safeParse(c.graderConfig?.[id] ?? {});
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
  if (!choice.graders.includes("tau3")) throw new GradingSpecError("select at least the tau3 grader");
  // The strict delta gate is always stored beside the structured grader (both flip counts are reported).
  const selected = choice.graders.includes("structured")
    ? [...choice.graders, "structured_strict"]
    : choice.graders;
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
  for (const id of Object.keys(choice.graderConfig ?? {}))
    if (isBuiltInGraderId(id) || !selected.includes(id))
      throw new GradingSpecError(
        `at grader_config.${id}: ${isBuiltInGraderId(id) ? "a built-in grader takes its settings from the experiment's own keys" : `grader ${id} is not selected`}`,
      );
  const graders: Record<string, unknown> = {};
  try {
    for (const id of GRADER_IDS)
      if (selected.includes(id))
        graders[id] = isBuiltInGraderId(id) ? CONFIG_BUILDERS[id](choice) : registeredConfig(id, choice);
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

/** Never hashed, stored or printed. */
export interface GradingSecrets {
  readonly judgeApiKey: string | null;
}

/** How a live judge runs, not what it decides: never hashed into the run id. */
export interface JudgeRuntime {
  readonly concurrency?: number;
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** Replies already known (a run's store, `--judge-cache`); new ones are added to it. */
  readonly cache?: JudgmentCache;
  readonly log?: (line: string) => void;
}

/** A spec made ready to grade with: its judge, quirks and every selected grader's loaded configuration. */
export interface LoadedGrading {
  readonly spec: GradingSpec;
  readonly hashes: Readonly<Partial<Record<GraderId, string>>>;
  readonly judge: NlJudge;
  readonly quirks: Quirks;
  readonly fallbackTaskVersion: string;
  readonly domainAs: Readonly<Record<string, string>>;
  readonly graders: LoadedGraders;
}

/** The run's judge; the HTTP client is imported only when a live judge is asked for. */
export async function judgeFor(
  spec: JudgeSpec,
  secrets: GradingSecrets,
  runtime: JudgeRuntime = {},
): Promise<NlJudge> {
  if (spec.mode === "recorded") return recordedJudge;
  if (spec.mode === "none") return noJudge;
  const { httpJudge } = await import("./tau3/judge/http-judge.ts");
  return httpJudge({
    baseUrl: spec.base_url,
    model: spec.model,
    apiKey: secrets.judgeApiKey,
    temperature: spec.temperature,
    all: spec.all,
    params: spec.params,
    ...(runtime.concurrency === undefined ? {} : { concurrency: runtime.concurrency }),
    policy: {
      ...(runtime.timeoutMs === undefined ? {} : { timeoutMs: runtime.timeoutMs }),
      ...(runtime.retries === undefined ? {} : { retries: runtime.retries }),
    },
    ...(runtime.cache === undefined ? {} : { cache: runtime.cache }),
    ...(runtime.log === undefined ? {} : { log: runtime.log }),
  });
}

/**
 * Options loaded per grader config, kept for the process. A config names its files by content hash,
 * so an equal config loads equal options; a grading thread lives across runs and would otherwise
 * re-read and re-verify every fixture and clause on each run (tens of ms per thread per run).
 */
const loadedOptions = new Map<string, unknown>();
const LOADED_OPTIONS_KEPT = 8;

async function loadOptions(id: GraderId, config: unknown): Promise<unknown> {
  const key = `${id}\u0000${stableJson(config)}`;
  if (loadedOptions.has(key)) return loadedOptions.get(key);
  const options = await graderOf(id).load(config);
  if (loadedOptions.size >= LOADED_OPTIONS_KEPT)
    loadedOptions.delete(loadedOptions.keys().next().value as string);
  loadedOptions.set(key, options);
  return options;
}

/** Loads what the spec points at; a broken overlay or override file is a `GradingSpecError`. */
export async function loadGrading(
  spec: GradingSpec,
  secrets: GradingSecrets,
  runtime: JudgeRuntime = {},
): Promise<LoadedGrading> {
  // A spec crosses into grading threads unparsed: a grader it names that is not registered there
  // (its module not imported) must not be left out silently.
  for (const id of Object.keys(spec.graders))
    if (!isGraderId(id)) throw new GradingSpecError(`unknown grader ${id} (${GRADER_IDS.join(", ")})`);
  const graders: Record<string, unknown> = {};
  for (const id of selectedGraders(spec)) {
    try {
      // A grader runs when it has a loaded configuration: `undefined` would read as "not selected".
      graders[id] = (await loadOptions(id, spec.graders[id])) ?? null;
    } catch (e) {
      // Whatever a module's load throws is about its configuration or what that points at.
      if (!isBuiltInGraderId(id))
        throw new GradingSpecError(`${graderModuleLabel(id)}: load failed: ${thrownText(e)}`);
      const expected =
        e instanceof CorrectionsError ||
        e instanceof HandoffOverridesError ||
        // a file system error (this tool's own errors carry a code too)
        (!(e instanceof RescoreError) && (e as NodeJS.ErrnoException).code !== undefined);
      if (expected) throw new GradingSpecError(`grader ${id}: ${(e as Error).message}`);
      throw e;
    }
  }
  return {
    spec,
    hashes: specHashes(spec),
    judge: await judgeFor(spec.judge, secrets, runtime),
    quirks: resolveQuirks(spec.quirks.preset, spec.quirks.overrides),
    fallbackTaskVersion: spec.fallback_task_version,
    domainAs: spec.domain_as ?? {},
    graders: graders as LoadedGraders,
  };
}
