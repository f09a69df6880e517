/** `tau-rescore grade`: one JSON line (or a table row) per simulation, with each selected grader's verdict. */
import type { Command } from "commander";
import { type Quirks, resolveQuirks } from "../../domains/quirks.ts";
import { loadJsonFile } from "../../formats/load.ts";
import { detectTaskVersion } from "../../formats/task-version.ts";
import { loadCorrectionsDir } from "../../graders/corrections/builtin.ts";
import { DEFAULT_STRUCTURED_CONFIG, type StructuredConfig } from "../../graders/structured/grade.ts";
import { POLICY_RULE_IDS, type PolicyRuleId } from "../../graders/structured/policy/index.ts";
import { BUILTIN_REQUIREMENTS_DIR, loadRequirements } from "../../graders/structured/requirements/load.ts";
import { DEFAULT_JUDGE_MODEL, httpJudge } from "../../graders/tau3/judge-http.ts";
import { type NlJudge, noJudge, recordedJudge } from "../../graders/tau3/nl.ts";
import { ContextPool } from "../../pipeline/contexts.ts";
import { gradeFile, type SimulationRow } from "../../pipeline/grade.ts";
import { listInputFiles } from "../../pipeline/inputs.ts";
import { resolveDataDir } from "../data-dir.ts";
import { InputError, UsageError } from "../errors.ts";

interface GradeOptions {
  dataDir?: string;
  grader: string;
  format: string;
  judge: string;
  judgeBaseUrl?: string;
  judgeModel?: string;
  judgeApiKey?: string;
  corrections: string;
  correctionsDir?: string;
  fallbackTaskVersion: string;
  quirks: string;
  quirk?: string[];
  requirements?: string;
  gate?: string;
}

export function registerGradeCommand(program: Command): void {
  program
    .command("grade")
    .description("grade every simulation of the given trajectory files (or directories)")
    .argument("<paths...>", "trajectory files or directories")
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .option("--grader <list>", "comma-separated graders: tau3 or tau3,structured", "tau3")
    .option(
      "--requirements <dir>",
      "requirement fixtures for the structured grader (default: the repo's requirements/)",
    )
    .option(
      "--gate <rules>",
      "comma-separated policy rules that fail the structured verdict (default: none; all are reported)",
    )
    .option("--format <fmt>", "jsonl | table", "jsonl")
    .option("--judge <mode>", "NL-assertion judge: recorded | http | none", "recorded")
    .option(
      "--judge-base-url <url>",
      "OpenAI-compatible endpoint for --judge http; default $TAU_RESCORE_JUDGE_BASE_URL or $OPENAI_BASE_URL",
    )
    .option(
      "--judge-model <model>",
      `judge model; default $TAU_RESCORE_JUDGE_MODEL or ${DEFAULT_JUDGE_MODEL}`,
    )
    .option("--judge-api-key <key>", "judge API key; default $TAU_RESCORE_JUDGE_API_KEY or $OPENAI_API_KEY")
    .option("--corrections <on|off>", "also report verdicts under the corrections overlay", "off")
    .option("--corrections-dir <dir>", "corrections overlays (default: the repo's corrections/)")
    .option("--fallback-task-version <name>", "task set for files that embed no tasks", "head")
    .option("--quirks <preset>", "tau2 bugs: tau2 (reproduce, for parity) or fixed", "tau2")
    .option("--quirk <name=on|off...>", "override one quirk, e.g. noGoldSync=off")
    .action((paths: string[], opts: GradeOptions) => runGrade(paths, opts));
}

function judgeFor(opts: GradeOptions, env: NodeJS.ProcessEnv = process.env): NlJudge {
  if (opts.judge === "recorded") return recordedJudge;
  if (opts.judge === "none") return noJudge;
  if (opts.judge !== "http") throw new UsageError(`unknown --judge ${opts.judge} (recorded, http, none)`);
  const baseUrl = opts.judgeBaseUrl ?? env.TAU_RESCORE_JUDGE_BASE_URL ?? env.OPENAI_BASE_URL;
  if (baseUrl === undefined)
    throw new UsageError("--judge http needs --judge-base-url or $TAU_RESCORE_JUDGE_BASE_URL");
  return httpJudge({
    baseUrl,
    model: opts.judgeModel ?? env.TAU_RESCORE_JUDGE_MODEL ?? DEFAULT_JUDGE_MODEL,
    apiKey: opts.judgeApiKey ?? env.TAU_RESCORE_JUDGE_API_KEY ?? env.OPENAI_API_KEY ?? null,
  });
}

async function runGrade(paths: string[], opts: GradeOptions): Promise<void> {
  const graders = new Set(opts.grader.split(",").map((g) => g.trim()));
  for (const g of graders)
    if (g !== "tau3" && g !== "structured") throw new UsageError(`unknown grader ${g} (tau3, structured)`);
  if (!graders.has("tau3"))
    throw new UsageError("the structured grader builds on tau3: use --grader tau3,structured");
  if (opts.format !== "jsonl" && opts.format !== "table")
    throw new UsageError(`unknown --format ${opts.format}`);
  if (opts.corrections !== "off" && opts.corrections !== "on")
    throw new UsageError("--corrections takes on or off");
  const dataDir = resolveDataDir(opts.dataDir);
  const judge = judgeFor(opts);
  const corrections = opts.corrections === "on" ? loadCorrectionsDir(opts.correctionsDir) : undefined;
  const structured = graders.has("structured") ? structuredConfig(opts) : undefined;
  let quirks: Quirks;
  try {
    quirks = resolveQuirks(opts.quirks, opts.quirk ?? []);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const pool = new ContextPool(dataDir, quirks);
  const files = listInputFiles(paths);
  let failedFiles = 0;
  let errorRows = 0;
  const out = process.stdout;
  if (opts.format === "table") out.write(`${tableHeader()}\n`);
  for (const path of files) {
    let loaded: ReturnType<typeof loadJsonFile>;
    try {
      loaded = loadJsonFile(path);
    } catch (e) {
      failedFiles++;
      process.stderr.write(`tau-rescore: ${(e as Error).message}\n`);
      continue;
    }
    if (loaded.variant === "not-trajectories") continue;
    const version = detectTaskVersion(loaded, dataDir);
    for await (const g of gradeFile(loaded, version, pool, {
      judge,
      fallbackTaskVersion: opts.fallbackTaskVersion,
      corrections,
      structured,
    })) {
      if (g.row.error !== undefined) errorRows++;
      out.write(`${opts.format === "jsonl" ? JSON.stringify(g.row) : tableRow(g.row)}\n`);
    }
  }
  if (failedFiles > 0 || errorRows > 0) {
    throw new InputError(
      `${failedFiles} file(s) failed to load, ${errorRows} simulation(s) could not be graded`,
    );
  }
}

function structuredConfig(opts: GradeOptions): StructuredConfig {
  const requirements = loadRequirements(opts.requirements ?? BUILTIN_REQUIREMENTS_DIR);
  for (const p of requirements.problems)
    process.stderr.write(`tau-rescore: requirement fixture rejected: ${p.path}: ${p.message}\n`);
  const gate = (opts.gate ?? "")
    .split(",")
    .map((g) => g.trim())
    .filter((g) => g !== "");
  for (const g of gate) {
    if (!(POLICY_RULE_IDS as string[]).includes(g))
      throw new UsageError(`unknown policy rule ${g} (${POLICY_RULE_IDS.join(", ")})`);
  }
  return { ...DEFAULT_STRUCTURED_CONFIG, requirements, gateOnPolicy: gate as PolicyRuleId[] };
}

const tableHeader = () =>
  ["task", "trial", "term", "recorded", "tau3", "structured", "db", "basis", "file"].join("\t");

function tableRow(r: SimulationRow): string {
  const t = r.tau3;
  return [
    r.task_id ?? "-",
    r.trial ?? "-",
    r.termination_reason ?? "-",
    r.recorded_reward ?? "-",
    r.error !== undefined ? `ERROR: ${r.error}` : (t?.reward ?? "unknown"),
    r.structured === undefined
      ? "-"
      : r.structured.pass === null
        ? "unknown"
        : r.structured.pass
          ? "pass"
          : `FAIL(${r.structured.causes.join(",")})`,
    t?.db_match ?? "-",
    t?.basis?.join("+") ?? "-",
    r.file,
  ].join("\t");
}
