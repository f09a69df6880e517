/** What grading an experiment needs, rebuilt from the (plain, clonable) resolved experiment. */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { resolveQuirks } from "../domains/quirks.ts";
import type { ResolvedExperiment } from "../experiments/config.ts";
import { sha256Hex } from "../formats/py/json.ts";
import { stableJson } from "../formats/stable-json.ts";
import { loadCorrectionsDir } from "../graders/corrections/builtin.ts";
import { DEFAULT_STRUCTURED_CONFIG } from "../graders/structured/grade.ts";
import { loadOverrides } from "../graders/structured/handoff.ts";
import { POLICY_RULE_IDS, type PolicyRuleId } from "../graders/structured/policy/index.ts";
import { loadRequirements } from "../graders/structured/requirements/load.ts";
import { DEFAULT_JUDGE_MODEL, httpJudge } from "../graders/tau3/judge-http.ts";
import { type NlJudge, noJudge, recordedJudge } from "../graders/tau3/nl.ts";
import { ContextPool } from "./contexts.ts";
import type { GradeSettings } from "./grade.ts";
import type { FileDeps } from "./process-file.ts";

export const TOOL_VERSION = "0.1.0";

/** sha256 over a folder's JSON files (names and bytes), so a run id changes when fixtures do. */
function folderFingerprint(dir: string): string {
  const h = createHash("sha256");
  if (!existsSync(dir)) return "absent";
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".json"))
        h.update(`${relative(dir, p)}\0`)
          .update(readFileSync(p))
          .update("\0");
    }
  };
  walk(dir);
  return h.digest("hex");
}

export function runIdFor(exp: ResolvedExperiment): string {
  return sha256Hex(
    stableJson({
      config: exp.configHash,
      tool: TOOL_VERSION,
      requirements: folderFingerprint(exp.requirementsDir),
      corrections: exp.config.corrections ? folderFingerprint(exp.correctionsDir) : "off",
      handoff:
        exp.handoffOverrides === null
          ? "none"
          : createHash("sha256").update(readFileSync(exp.handoffOverrides)).digest("hex"),
    }),
  ).slice(0, 16);
}

function judgeFor(exp: ResolvedExperiment, env: NodeJS.ProcessEnv): NlJudge {
  const j = exp.config.judge;
  if (j.mode === "recorded") return recordedJudge;
  if (j.mode === "none") return noJudge;
  const baseUrl = j.base_url ?? env.TAU_RESCORE_JUDGE_BASE_URL ?? env.OPENAI_BASE_URL;
  if (baseUrl === undefined)
    throw new Error("judge mode http needs judge.base_url or $TAU_RESCORE_JUDGE_BASE_URL");
  return httpJudge({
    baseUrl,
    model: j.model ?? env.TAU_RESCORE_JUDGE_MODEL ?? DEFAULT_JUDGE_MODEL,
    apiKey: env.TAU_RESCORE_JUDGE_API_KEY ?? env.OPENAI_API_KEY ?? null,
  });
}

export interface ExperimentSettings {
  readonly grade: GradeSettings;
  readonly gatedRules: ReadonlySet<string>;
  readonly rejectedFixtures: number;
}

export function settingsFor(
  exp: ResolvedExperiment,
  env: NodeJS.ProcessEnv = process.env,
): ExperimentSettings {
  const c = exp.config;
  for (const g of c.gate.policy_rules) {
    if (!(POLICY_RULE_IDS as string[]).includes(g))
      throw new Error(`unknown policy rule ${g} in gate.policy_rules`);
  }
  const requirements = c.graders.includes("structured") ? loadRequirements(exp.requirementsDir) : null;
  const grade: GradeSettings = {
    judge: judgeFor(exp, env),
    fallbackTaskVersion: c.fallback_task_version,
    ...(c.corrections ? { corrections: loadCorrectionsDir(exp.correctionsDir) } : {}),
    ...(requirements === null
      ? {}
      : {
          structured: {
            ...DEFAULT_STRUCTURED_CONFIG,
            requirements,
            gateOnPolicy: c.gate.policy_rules as PolicyRuleId[],
            gateOnFormatErrors: c.gate.format_errors,
            gateOnNlCurated: c.gate.nl_curated,
            handoffOverrides: exp.handoffOverrides === null ? null : loadOverrides(exp.handoffOverrides),
          },
        }),
  };
  return {
    grade,
    gatedRules: new Set([...c.gate.policy_rules, ...(c.gate.format_errors ? ["format_errors"] : [])]),
    rejectedFixtures: requirements?.problems.length ?? 0,
  };
}

/** What grading one file needs, for a run: built once per run in the main thread or in each worker. */
export function fileDepsFor(exp: ResolvedExperiment, runId: string, committed: Iterable<string>): FileDeps {
  const settings = settingsFor(exp);
  return {
    runId,
    dataDir: exp.dataDir,
    pool: new ContextPool(exp.dataDir, resolveQuirks(exp.config.quirks.preset, exp.config.quirks.overrides)),
    settings: settings.grade,
    gatedRules: settings.gatedRules,
    exclusions: exp.config.exclude_from_rankings,
    committed: new Set(committed),
  };
}
