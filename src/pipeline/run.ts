/**
 * `tau-rescore run`: grade every file of an experiment with both graders into one DuckDB file.
 * Idempotent and resumable: a file whose rows were committed under this run id is skipped.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { TAU2_QUIRKS } from "../domains/quirks.ts";
import { domainByName } from "../domains/registry.ts";
import type { ResolvedExperiment } from "../experiments/config.ts";
import { FormatError } from "../formats/errors.ts";
import { loadJsonFile } from "../formats/load.ts";
import type { TrajectoryFile } from "../formats/model.ts";
import { sha256Hex } from "../formats/py/json.ts";
import { stableJson } from "../formats/stable-json.ts";
import { detectTaskVersion } from "../formats/task-version.ts";
import { loadCorrectionsDir } from "../graders/corrections/builtin.ts";
import { DEFAULT_STRUCTURED_CONFIG, type StructuredConfig } from "../graders/structured/grade.ts";
import { POLICY_RULE_IDS, type PolicyRuleId } from "../graders/structured/policy/index.ts";
import { loadRequirements } from "../graders/structured/requirements/load.ts";
import { DEFAULT_JUDGE_MODEL, httpJudge } from "../graders/tau3/judge-http.ts";
import { type NlJudge, noJudge, recordedJudge } from "../graders/tau3/nl.ts";
import { batchFor, type FileContext, fileRow, metaOf, unloadedMeta } from "../store/rows.ts";
import type { VerdictStore } from "../store/store.ts";
import { ContextPool } from "./contexts.ts";
import { type GradedSimulation, type GradeSettings, gradeFile } from "./grade.ts";
import { listInputFiles } from "./inputs.ts";
import type { Progress } from "./progress.ts";

export const TOOL_VERSION = "0.1.0";

export interface RunSummary {
  readonly runId: string;
  readonly files: number;
  readonly skipped: number;
  readonly notTrajectories: number;
  readonly failedFiles: number;
  readonly simulations: number;
  readonly errors: number;
  readonly rejectedFixtures: number;
}

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

function structuredConfig(exp: ResolvedExperiment): { config: StructuredConfig; rejected: number } {
  const gate = exp.config.gate.policy_rules;
  for (const g of gate)
    if (!(POLICY_RULE_IDS as string[]).includes(g))
      throw new Error(`unknown policy rule ${g} in gate.policy_rules`);
  const requirements = loadRequirements(exp.requirementsDir);
  return {
    config: {
      ...DEFAULT_STRUCTURED_CONFIG,
      requirements,
      gateOnPolicy: gate as PolicyRuleId[],
      gateOnFormatErrors: exp.config.gate.format_errors,
      gateOnNlCurated: exp.config.gate.nl_curated,
    },
    rejected: requirements.problems.length,
  };
}

function exclusionFor(exp: ResolvedExperiment, path: string, file: TrajectoryFile | null): string | null {
  for (const e of exp.config.exclude_from_rankings) {
    if (e.path_contains !== undefined && !path.includes(e.path_contains)) continue;
    if (e.agent_model !== undefined && file?.info.agent_model !== e.agent_model) continue;
    return e.reason;
  }
  return null;
}

export async function runExperiment(
  exp: ResolvedExperiment,
  store: VerdictStore,
  progress: Progress,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunSummary> {
  const runId = runIdFor(exp);
  const existing = await store.query<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM runs WHERE run_id = $1",
    [runId],
  );
  if ((existing[0]?.n ?? 0) === 0) {
    const seq = (await store.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM runs"))[0]?.n ?? 0;
    const c = exp.config;
    await store.append("runs", [
      [
        runId,
        seq + 1,
        c.name,
        exp.configHash,
        TOOL_VERSION,
        JSON.stringify(c),
        c.infrastructure_errors,
        c.ranking.min_task_coverage,
        c.ranking.bootstrap_samples,
        c.ranking.seed,
      ],
    ]);
  }
  const committed = await store.committedFiles(runId);
  const structured = exp.config.graders.includes("structured") ? structuredConfig(exp) : null;
  const settings: GradeSettings = {
    judge: judgeFor(exp, env),
    fallbackTaskVersion: exp.config.fallback_task_version,
    ...(exp.config.corrections ? { corrections: loadCorrectionsDir(exp.correctionsDir) } : {}),
    ...(structured === null ? {} : { structured: structured.config }),
  };
  const gatedRules = new Set<string>([
    ...exp.config.gate.policy_rules,
    ...(exp.config.gate.format_errors ? ["format_errors"] : []),
  ]);
  const pool = new ContextPool(exp.dataDir, TAU2_QUIRKS);
  const files = listInputFiles(exp.corpusPaths);
  const corpusBase =
    exp.corpusPaths.length === 1 && statSync(exp.corpusPaths[0] as string).isDirectory()
      ? (exp.corpusPaths[0] as string)
      : process.cwd();
  let skipped = 0;
  let notTrajectories = 0;
  let failedFiles = 0;
  let simulations = 0;
  let errors = 0;
  progress.start(files.length);
  for (const full of files) {
    const bytes = readFileSync(full);
    const fileId = createHash("sha256").update(bytes).digest("hex");
    const path = relative(corpusBase, full) || full;
    if (committed.has(fileId)) {
      skipped++;
      progress.tick(path, 0);
      continue;
    }
    let loaded: ReturnType<typeof loadJsonFile>;
    try {
      loaded = loadJsonFile(full);
    } catch (e) {
      failedFiles++;
      const msg =
        e instanceof FormatError ? e.message.replace(full, path) : `unexpected: ${(e as Error).message}`;
      const ctx: FileContext = {
        runId,
        fileId,
        path,
        file: unloadedMeta("unreadable"),
        taskVersion: "unknown",
        domain: undefined,
        exclusion: null,
        gatedRules,
      };
      await store.writeFile(fileRow(ctx, "error", msg), { errors: [[runId, fileId, "", "load", msg]] });
      progress.tick(path, 0);
      continue;
    }
    if (loaded.variant === "not-trajectories") {
      notTrajectories++;
      const ctx: FileContext = {
        runId,
        fileId,
        path,
        file: unloadedMeta("not-trajectories"),
        taskVersion: "none",
        domain: undefined,
        exclusion: null,
        gatedRules,
      };
      await store.writeFile(fileRow(ctx, "not-trajectories", loaded.reason), {});
      progress.tick(path, 0);
      continue;
    }
    const version = detectTaskVersion(loaded, exp.dataDir);
    const graded: GradedSimulation[] = [];
    for await (const g of gradeFile(loaded, version, pool, settings)) graded.push(g);
    const taskVersion = graded[0]?.row.task_version ?? version.version;
    const ctx: FileContext = {
      runId,
      fileId,
      path,
      file: metaOf(loaded),
      taskVersion,
      domain: domainByName(loaded.info.domain ?? ""),
      exclusion: exclusionFor(exp, path, loaded),
      gatedRules,
    };
    const batch = batchFor(ctx, graded);
    simulations += graded.length;
    errors += batch.errors?.length ?? 0;
    await store.writeFile(fileRow(ctx, "graded", null), batch);
    progress.tick(path, graded.length);
  }
  progress.stop();
  return {
    runId,
    files: files.length,
    skipped,
    notTrajectories,
    failedFiles,
    simulations,
    errors,
    rejectedFixtures: structured?.rejected ?? 0,
  };
}
