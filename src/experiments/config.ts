/**
 * Experiment configs (JSON in `experiments/`, or a project's `experiment.json`): what to grade, how, and
 * where the verdicts go. Paths are relative to the config file and must stay inside the roots the config
 * declares, or, when it declares none, inside the config's own folder, so a shared config cannot read or
 * write outside them. Requirements, policies and corrections are the experiment's own folders over the
 * tool's curated sets.
 */
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, isAbsolute, join, parse, relative, resolve, sep } from "node:path";
import { stableJson } from "../formats/stable-json.ts";
import { readJsonFile } from "../formats/zod-issues.ts";
import { comparisonSchema } from "../graders/comparisons.ts";
import { BUILTIN_CORRECTIONS_DIR } from "../graders/corrections/folder.ts";
import { GRADER_ID_PATTERN, GRADER_IDS, isGraderId } from "../graders/registry.ts";
import { judgeBaseUrlSchema, judgeParamsSchema, quirkOverrideSchema } from "../graders/spec.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../graders/structured/folders.ts";
import { structuredGatesConfigSchema } from "../graders/structured/gates.ts";
import { sha256Hex } from "../py/json.ts";
import { MEMORY_LIMIT_FORMAT, memoryLimitBytes } from "../store/resources.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { type Layers, layerOver } from "../util/layers.ts";
import { LIMITS, type NumberRange, nameTooLong, outOfRange } from "../util/limits.ts";
import { safeNameSchema, unsafeNameReason } from "../util/safe-name.ts";
import { z } from "../util/zod.ts";

/** A name that becomes part of file names (report charts): at most `LIMITS.nameLength` characters. */
const boundedName = (what: string) =>
  z.maxLength(LIMITS.nameLength.max, { error: (i) => nameTooLong(what, i.input) });

/** A number in its documented range; any other value is refused naming the range. */
const bounded = (r: NumberRange) => {
  const n = z
    .number({ error: (issue) => outOfRange(r, issue.input) })
    .min(r.min)
    .max(r.max);
  return r.integer ? n.int() : n;
};

const exclusion = z.strictObject({
  /** Matches files whose path (relative to the corpus root) contains this text. */
  path_contains: z.string().min(1).optional(),
  /** Matches files whose agent model equals this. */
  agent_model: z.string().min(1).optional(),
  reason: z.string().trim().min(1, "every exclusion needs a reason"),
});

const taskExclusion = z.strictObject({
  domain: z.string().min(1),
  /** The task set; any when left out. */
  task_version: z.string().min(1).optional(),
  task_id: z.string().min(1),
  reason: z.string().trim().min(1, "every exclusion needs a reason"),
});

/** The graders an experiment selects when it names none (`structured` brings `structured_strict`). */
export const DEFAULT_GRADERS: readonly string[] = ["tau3", "structured"];

export const experimentSchema = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9_.-]+$/),
    description: z.string().default(""),
    /**
     * Directories every other path must stay inside, relative to this file. Without them every path is
     * relative to this file's folder and stays inside it (a project's experiment).
     */
    roots: z
      .strictObject({
        corpus: z.string(),
        data: z.string(),
        output: z.string(),
        repo: z.string().default(".."),
      })
      .optional(),
    /** Corpus files or folders, relative to `roots.corpus`. */
    corpus: z.array(z.string()).min(1),
    /**
     * The tau2 data dir, relative to `roots.data` (default "."; overridden by --data-dir / TAU2_DATA_DIR).
     * Without roots it has no default: the command line names the data dir.
     */
    data_dir: z.string().optional(),
    /** Task set for files that embed no tasks (every other file is graded against the tasks it embeds). */
    fallback_task_version: z.string().min(1).default("head"),
    /**
     * Domain names graded as a base domain, for variants without a `domains/<name>/variant.json` in the
     * data dir: `{"airline_tighter_policy": "airline"}`.
     */
    domain_as: z.record(z.string(), safeNameSchema).optional(),
    /**
     * Graders by registry id; `corrections: true` adds `tau3_corrected`, and `structured` brings
     * `structured_strict`. Ids of graders from `grader_modules` are checked once those are imported.
     */
    graders: z
      .array(
        z
          .string()
          .regex(GRADER_ID_PATTERN, "a grader id is lowercase letters, digits and _")
          .check(boundedName("a grader id")),
      )
      .min(1)
      .default(() => [...DEFAULT_GRADERS]),
    /**
     * Modules (relative to `roots.repo`) whose default export is a grader made with `defineGrader`;
     * `run` imports them before anything is graded, and `graders` and `comparisons` may then name them.
     */
    grader_modules: z.array(z.string().min(1)).default([]),
    /** The configuration of each grader from `grader_modules`, by id, checked against its own schema. */
    grader_config: z.record(z.string(), z.unknown()).default({}),
    judge: z
      .strictObject({
        mode: z.enum(["recorded", "http", "none"]).default("recorded"),
        /** For mode http; else the command line's --judge-base-url / $TAU_RESCORE_JUDGE_BASE_URL. */
        base_url: judgeBaseUrlSchema.optional(),
        model: z.string().min(1).optional(),
        temperature: bounded(LIMITS.judgeTemperature).optional(),
        /** Judge where tau2 would not (NL_ASSERTION outside the reward basis), for analysis. */
        all: z.boolean().optional(),
        /** Request parameters tau2 does not send (opt-in). */
        params: judgeParamsSchema.optional(),
      })
      .default({ mode: "recorded" }),
    corrections: z.boolean().default(false),
    /** Relative to `roots.repo`. */
    requirements_dir: z.string().default("requirements"),
    /** Domain policy clauses (relative to `roots.repo`). */
    policies_dir: z.string().default("policies"),
    corrections_dir: z.string().default("corrections"),
    /** Reviewed hand-off label overrides (relative to `roots.repo`), or null for the rule-derived labels. */
    handoff_overrides: z.string().nullable().default(null),
    /**
     * Reviewer verdicts on this experiment's flips (relative to `roots.repo`; default
     * `reviews/<name>.json`). Not part of the config hash: reviews change without re-grading.
     */
    reviews: z.string().min(1).optional(),
    /** What fails the structured verdict beyond τ³, requirements and the delta gate (all are reported). */
    gate: structuredGatesConfigSchema,
    /** tau2 bugs to reproduce: a preset plus `name=on|off` overrides (see src/domains/quirks.ts). */
    quirks: z
      .strictObject({
        preset: z.enum(["tau2", "fixed"]).default("tau2"),
        overrides: z.array(quirkOverrideSchema).default([]),
      })
      .default({ preset: "tau2", overrides: [] }),
    /** Whose conversations and task text the store keeps for reviewers: where graders disagree, or all. */
    conversations: z.enum(["disagreements", "all"]).default("disagreements"),
    /** tau2 drops `infrastructure_error` simulations from pass^k; `count_as_failure` keeps them as 0. */
    infrastructure_errors: z.enum(["drop", "count_as_failure"]).default("drop"),
    /** Relative to `roots.output`. */
    output: z.string(),
    exclude_from_rankings: z.array(exclusion).default([]),
    /** Tasks left out of rankings and every headline number, each with its reason (as excluded files are). */
    exclude_tasks: z.array(taskExclusion).default([]),
    /**
     * Pairs of ways to grade, compared side by side: graders this experiment runs, or `recorded`. The first
     * is the headline. Without the key, what each grader run declares it is compared with.
     */
    comparisons: z
      .array(comparisonSchema)
      .min(1)
      .max(LIMITS.comparisons.max, {
        error: (i) =>
          `at most ${LIMITS.comparisons.max} comparisons (got ${(i.input as unknown[]).length}): report memory grows with each`,
      })
      .optional(),
    ranking: z
      .strictObject({
        /** Entities covering less than this share of their group's tasks are left out of rankings. */
        min_task_coverage: bounded(LIMITS.minTaskCoverage).default(0.8),
        bootstrap_samples: bounded(LIMITS.bootstrapSamples).default(1000),
        seed: bounded(LIMITS.seed).default(20261129),
      })
      .default({ min_task_coverage: 0.8, bootstrap_samples: 1000, seed: 20261129 }),
    /**
     * How `report` presents the analyses (never what they are). Not part of the config hash: it changes
     * no verdict.
     */
    report: z
      .strictObject({
        /** A model with fewer simulations in a domain is left out of the rate charts by model (default 20). */
        min_model_simulations: z.int().min(1).max(1_000_000).optional(),
      })
      .optional(),
    /**
     * The store's DuckDB: `memory_limit` such as "4GB" (default: half the memory, at most 4 GiB; the
     * command line's --memory-limit wins). Not part of the config hash: it changes no verdict.
     */
    duckdb: z
      .strictObject({
        memory_limit: z
          .string()
          .refine((s) => memoryLimitBytes(s) !== null, `must be ${MEMORY_LIMIT_FORMAT}`)
          .optional(),
      })
      .optional(),
  })
  .superRefine((c, ctx) => {
    // A variant's name picks a folder of the data dir: a name, never a path (zod words a key's issue vaguely).
    for (const name of Object.keys(c.domain_as ?? {})) {
      const why = unsafeNameReason(name);
      if (why !== null) ctx.addIssue({ code: "custom", path: ["domain_as", name], message: why });
    }
    // Without modules every id must be built in: say which entry is wrong before anything is imported.
    if (c.grader_modules.length === 0)
      c.graders.forEach((g, i) => {
        if (!isGraderId(g))
          ctx.addIssue({
            code: "custom",
            path: ["graders", i],
            message: `unknown grader ${g} (${GRADER_IDS.join(", ")}; others come from grader_modules)`,
          });
      });
    if (c.graders.includes("structured") && !c.graders.includes("tau3"))
      ctx.addIssue({
        code: "custom",
        path: ["graders"],
        message: "the structured grader builds on tau3: list tau3 too",
      });
    if (c.gate.nl_curated && !c.corrections)
      ctx.addIssue({
        code: "custom",
        path: ["gate", "nl_curated"],
        message: "gating on the curated NL list needs the corrections overlay (corrections: true)",
      });
  })
  // An experiment with roots reads (and hashes) its data dir as "." unless it names one, as it always has.
  .transform((c) => (c.roots === undefined || c.data_dir !== undefined ? c : { ...c, data_dir: "." }));
export type ExperimentConfig = z.infer<typeof experimentSchema>;

export class ExperimentError extends RescoreError {
  override readonly code = "experiment";
  override readonly exitStatus = EXIT_USAGE;

  override readonly name = "ExperimentError";
}

/** Is `full` the root itself or below it (both absolute)? `..foo` is a name, not a way up. */
function within(root: string, full: string): boolean {
  const rel = relative(root, full);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/** The real path of `p`, resolving symlinks in the part that exists (an output file may not yet). */
function realPathOfExisting(p: string): string {
  let tail = "";
  for (let at = p; ; at = dirname(at)) {
    try {
      const real = realpathSync(at);
      return tail === "" ? real : join(real, tail);
    } catch {
      if (dirname(at) === at) return p;
      tail = tail === "" ? basename(at) : join(basename(at), tail);
    }
  }
}

/**
 * A path from the config, resolved against its root; refuses anything that escapes the root, by `..`,
 * an absolute path, or a symbolic link inside the root that points outside it.
 */
export function insideRoot(root: string, path: string, what: string): string {
  const full = resolve(root, path);
  if (!within(root, full)) {
    throw new ExperimentError(`${what} ${JSON.stringify(path)} escapes its root ${root}`);
  }
  const realFull = realPathOfExisting(full);
  if (!within(realPathOfExisting(root), realFull)) {
    throw new ExperimentError(
      `${what} ${JSON.stringify(path)} escapes its root ${root} through a symbolic link (it resolves to ${realFull})`,
    );
  }
  return full;
}

export interface ResolvedExperiment {
  readonly config: ExperimentConfig;
  readonly file: string;
  readonly corpusPaths: readonly string[];
  /** The root the config's corpus paths are confined to; null when the command line named them. */
  readonly corpusRoot: string | null;
  /** Null when neither the command line nor the config names one (an experiment without roots). */
  readonly dataDir: string | null;
  readonly output: string;
  /** The experiment's requirements folder over the curated set: one folder when they are one, or it has none. */
  readonly requirementsDir: Layers;
  readonly policiesDir: Layers;
  readonly correctionsDir: Layers;
  readonly handoffOverrides: string | null;
  /** `grader_modules`, resolved inside `roots.repo` (imported by `importGraderModules`). */
  readonly graderModules: readonly string[];
  /** The reviews file (it need not exist yet: `tau-rescore review` creates it). */
  readonly reviewsFile: string;
  /** sha256 of the canonical config: part of every run id. */
  readonly configHash: string;
}

/**
 * What the views compute from verdicts, never what the verdicts are: left out of the config hash (and so
 * of the run id), so changing them re-grades nothing; `run` writes them over the run's (see
 * `ANALYSIS_KEYS`). Comparisons count only through whether one reads the recorded reward, which decides
 * the conversations a run keeps (`comparesRecorded`, in the run id).
 */
const ANALYSIS_ONLY = {
  description: undefined,
  reviews: undefined,
  duckdb: undefined,
  report: undefined,
  comparisons: undefined,
  ranking: undefined,
  exclude_from_rankings: undefined,
  exclude_tasks: undefined,
} as const satisfies Partial<Record<keyof ExperimentConfig, undefined>>;

/** The keys of an experiment that only the analyses read. */
export const ANALYSIS_KEYS = Object.keys(ANALYSIS_ONLY) as readonly (keyof ExperimentConfig)[];

export function loadExperiment(
  file: string,
  overrides: { dataDir?: string; corpus?: readonly string[]; db?: string; reviews?: string } = {},
): ResolvedExperiment {
  const config = readJsonFile(file, experimentSchema, (m) => new ExperimentError(m));
  const base = dirname(resolve(file));
  const root = (p: string) => resolve(base, p);
  for (const [name, r] of Object.entries(config.roots ?? {}))
    if (realPathOfExisting(root(r)) === parse(root(r)).root)
      throw new ExperimentError(
        `${file}: roots.${name} may not be the filesystem root: it would confine nothing`,
      );
  // Without roots, the experiment's own folder is every root.
  const roots = config.roots ?? { corpus: ".", data: ".", output: ".", repo: "." };
  const inside = (r: string, path: string, what: string): string => {
    try {
      return insideRoot(root(r), path, what);
    } catch (e) {
      if (e instanceof ExperimentError) throw new ExperimentError(`${file}: ${e.message}`);
      throw e;
    }
  };
  /** The experiment's folder over the curated one; a project without the default folder has only the curated. */
  const over = (path: string, what: string, curated: string, defaultName: string): Layers => {
    const own = inside(roots.repo, path, what);
    return path === defaultName && !existsSync(own) ? [curated] : layerOver(own, curated);
  };
  const corpusRoot = root(roots.corpus);
  return {
    config,
    file: resolve(file),
    // Paths given on the command line are the user's own choice; only the config's are confined.
    corpusPaths: overrides.corpus ?? config.corpus.map((p) => inside(roots.corpus, p, "corpus path")),
    corpusRoot: overrides.corpus === undefined ? corpusRoot : null,
    dataDir:
      overrides.dataDir ??
      (config.data_dir === undefined ? null : inside(roots.data, config.data_dir, "data_dir")),
    output: overrides.db ?? inside(roots.output, config.output, "output"),
    requirementsDir: over(
      config.requirements_dir,
      "requirements_dir",
      BUILTIN_REQUIREMENTS_DIR,
      "requirements",
    ),
    policiesDir: over(config.policies_dir, "policies_dir", BUILTIN_POLICIES_DIR, "policies"),
    correctionsDir: over(config.corrections_dir, "corrections_dir", BUILTIN_CORRECTIONS_DIR, "corrections"),
    handoffOverrides:
      config.handoff_overrides === null
        ? null
        : inside(roots.repo, config.handoff_overrides, "handoff_overrides"),
    graderModules: config.grader_modules.map((p) => inside(roots.repo, p, "grader module")),
    reviewsFile:
      overrides.reviews ?? inside(roots.repo, config.reviews ?? `reviews/${config.name}.json`, "reviews"),
    configHash: sha256Hex(
      stableJson({
        ...config,
        ...ANALYSIS_ONLY,
        // Left out when empty, so a config without modules keeps the hash (and runs) it had before them.
        grader_modules: config.grader_modules.length === 0 ? undefined : config.grader_modules,
        grader_config: Object.keys(config.grader_config).length === 0 ? undefined : config.grader_config,
      }),
    ),
  };
}
