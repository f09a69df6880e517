/** `tau-rescore grade`: one JSON line (or a table row) per simulation, with each selected grader's verdict. */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { duplicateIdWarnings } from "../../formats/duplicate-ids.ts";
import { loadJsonFile } from "../../formats/load.ts";
import { detectTaskVersion } from "../../formats/task-version.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { causeLabel } from "../../graders/causes.ts";
import { BUILTIN_CORRECTIONS_DIR } from "../../graders/corrections/builtin.ts";
import { GRADER_IDS } from "../../graders/registry.ts";
import { buildGradingSpec, type GradingChoice, GradingSpecError, loadGrading } from "../../graders/spec.ts";
import { BUILTIN_POLICIES_DIR } from "../../graders/structured/clauses/load.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../graders/structured/requirements/load.ts";
import { DEFAULT_JUDGE_MODEL } from "../../graders/tau3/judge/prompt.ts";
import { ContextPool } from "../../pipeline/contexts.ts";
import {
  type GradedSimulation,
  gradeFile,
  jsonLine,
  judgeLookahead,
  prefetchFileAt,
} from "../../pipeline/grade.ts";
import { listInputFiles } from "../../pipeline/inputs.ts";
import { resolveDataDir } from "../data-dir.ts";
import { judgeDefaults, judgeSecrets } from "../env.ts";
import { InputError, UsageError } from "../errors.ts";
import { loadJudgeCache, saveJudgeCache } from "../judge-cache.ts";
import {
  addJudgeRuntimeOptions,
  checkJudgeEndpoint,
  type JudgeRuntimeOptions,
  judgeRuntime,
  reportJudge,
} from "../judge-options.ts";

interface GradeOptions extends JudgeRuntimeOptions {
  dataDir?: string;
  grader: string;
  format: string;
  judge: string;
  judgeBaseUrl?: string;
  judgeModel?: string;
  judgeApiKey?: string;
  judgeAll?: boolean;
  judgeParams?: string;
  judgeCache?: string;
  corrections: string;
  correctionsDir?: string;
  fallbackTaskVersion: string;
  quirks: string;
  quirk?: string[];
  requirements?: string;
  policies?: string;
  handoffOverrides?: string;
  gate?: string;
  deltaGate: string;
  policyClauses: string;
}

/** Words `--gate` takes besides policy rule ids. */
const GATE_WORDS = ["format_errors", "nl_curated", "consistency", "user_state", "degenerate_judge"] as const;

export function registerGradeCommand(program: Command): void {
  const cmd = program
    .command("grade")
    .description("grade every simulation of the given trajectory files (or directories)")
    .argument("<paths...>", "trajectory files or directories")
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .option(
      "--grader <list>",
      `comma-separated graders (${GRADER_IDS.join(", ")}); e.g. tau3,structured`,
      "tau3",
    )
    .option(
      "--requirements <dir>",
      "requirement fixtures for the structured grader (default: the repo's requirements/)",
    )
    .option(
      "--policies <dir>",
      "domain policy clauses for the structured grader (default: the repo's policies/)",
    )
    .option("--handoff-overrides <file>", "reviewed hand-off label overrides for the structured grader")
    .option(
      "--delta-gate <mode>",
      "licensed (off-reference writes fail unless licensed) or strict",
      "licensed",
    )
    .option("--policy-clauses <on|off>", "broken domain policy clauses fail the structured verdict", "on")
    .option(
      "--gate <list>",
      `comma-separated policy rules, and ${GATE_WORDS.join(", ")}, that fail the structured verdict (default: none; all are reported)`,
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
    .option("--judge-all", "live judge: also where tau2 would not call it (NL_ASSERTION outside the basis)")
    .option(
      "--judge-params <json>",
      'live judge: extra request parameters tau2 does not send, e.g. \'{"response_format":{"type":"json_object"}}\'',
    )
    .option(
      "--judge-cache <file>",
      "live judge: DuckDB file of judge replies, read and extended (a run's store works)",
    )
    .option("--corrections <on|off>", "also report verdicts under the corrections overlay", "off")
    .option("--corrections-dir <dir>", "corrections overlays (default: the repo's corrections/)")
    .option("--fallback-task-version <name>", "task set for files that embed no tasks", "head")
    .option("--quirks <preset>", "tau2 bugs: tau2 (reproduce, for parity) or fixed", "tau2")
    // Repeatable, not variadic: a variadic option would swallow the paths after it.
    .option(
      "--quirk <name=on|off>",
      "override one quirk, e.g. noGoldSync=off (repeatable)",
      (q: string, all: string[] = []) => [...all, q],
    );
  addJudgeRuntimeOptions(cmd);
  cmd.action((paths: string[], opts: GradeOptions) => runGrade(paths, opts));
}

/** The flags as the grading choices `run` makes from an experiment config. */
function choiceOf(opts: GradeOptions): GradingChoice {
  if (opts.format !== "jsonl" && opts.format !== "table")
    throw new UsageError(`unknown --format ${opts.format} (jsonl, table)`);
  if (opts.corrections !== "off" && opts.corrections !== "on")
    throw new UsageError("--corrections takes on or off");
  if (!["recorded", "http", "none"].includes(opts.judge))
    throw new UsageError(`unknown --judge ${opts.judge} (recorded, http, none)`);
  if (opts.deltaGate !== "licensed" && opts.deltaGate !== "strict")
    throw new UsageError(`unknown --delta-gate ${opts.deltaGate} (licensed, strict)`);
  if (opts.policyClauses !== "on" && opts.policyClauses !== "off")
    throw new UsageError("--policy-clauses takes on or off");
  const list = (s: string | undefined) =>
    (s ?? "")
      .split(",")
      .map((x) => x.trim())
      .filter((x) => x !== "");
  const graders = list(opts.grader);
  const gate = list(opts.gate);
  const env = judgeDefaults();
  const base_url = opts.judgeBaseUrl ?? env.base_url;
  const model = opts.judgeModel ?? env.model;
  return {
    graders: [...graders, ...(opts.corrections === "on" ? ["tau3_corrected"] : [])],
    quirks: { preset: opts.quirks, overrides: opts.quirk ?? [] },
    judge: {
      mode: opts.judge,
      ...(base_url === undefined ? {} : { base_url }),
      ...(model === undefined ? {} : { model }),
      ...(opts.judgeAll === true ? { all: true } : {}),
      ...(opts.judgeParams === undefined ? {} : { params: judgeParamsOf(opts.judgeParams) }),
    },
    fallbackTaskVersion: opts.fallbackTaskVersion,
    requirementsDir: opts.requirements ?? BUILTIN_REQUIREMENTS_DIR,
    policiesDir: opts.policies ?? BUILTIN_POLICIES_DIR,
    correctionsDir: opts.correctionsDir ?? BUILTIN_CORRECTIONS_DIR,
    handoffOverrides: opts.handoffOverrides ?? null,
    gate: {
      policy_rules: gate.filter((g) => !(GATE_WORDS as readonly string[]).includes(g)),
      format_errors: gate.includes("format_errors"),
      nl_curated: gate.includes("nl_curated"),
      consistency: gate.includes("consistency"),
      degenerate_judge: gate.includes("degenerate_judge"),
      user_state: gate.includes("user_state"),
      policy_clauses: opts.policyClauses === "on",
      delta: opts.deltaGate,
    },
  };
}

function judgeParamsOf(text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--judge-params is not JSON: ${(e as Error).message}`);
  }
  if (v === null || typeof v !== "object" || Array.isArray(v))
    throw new UsageError("--judge-params takes a JSON object");
  return v as Record<string, unknown>;
}

async function runGrade(paths: string[], opts: GradeOptions): Promise<void> {
  // A typo in a path is a usage mistake, found before anything is graded (as `run --corpus`).
  for (const p of paths) if (!existsSync(p)) throw new UsageError(`${p}: no such file or directory`);
  const choice = choiceOf(opts);
  if (opts.gate !== undefined && !choice.graders.includes("structured"))
    throw new UsageError("--gate applies to the structured grader: use --grader tau3,structured");
  const runtime = judgeRuntime(opts);
  let grading: ReturnType<typeof loadGrading>;
  try {
    grading = loadGrading(buildGradingSpec(choice), judgeSecrets(process.env, opts.judgeApiKey), runtime);
  } catch (e) {
    if (e instanceof GradingSpecError) throw new UsageError(e.message);
    throw e;
  }
  const live = grading.spec.judge.mode === "http";
  if (opts.judgeCache !== undefined && !live) throw new UsageError("--judge-cache applies to --judge http");
  if (live)
    await checkJudgeEndpoint(grading.spec.judge.mode === "http" ? grading.spec.judge.base_url : undefined);
  const cacheFile =
    opts.judgeCache === undefined ? null : await loadJudgeCache(opts.judgeCache, runtime.cache);
  for (const p of grading.graders.structured?.requirements?.problems ?? [])
    process.stderr.write(`tau-rescore: requirement fixture rejected: ${p.path}: ${p.message}\n`);
  const dataDir = resolveDataDir(opts.dataDir);
  const pool = new ContextPool(dataDir, grading.quirks);
  const settings = {
    judge: grading.judge,
    fallbackTaskVersion: grading.fallbackTaskVersion,
    graders: grading.graders,
  };
  const files = listInputFiles(paths);
  let failedFiles = 0;
  let trajectoryFiles = 0;
  let errorRows = 0;
  const out = process.stdout;
  if (opts.format === "table") out.write(`${tableHeader()}\n`);
  // A live judge starts on the next files while one is graded (its limiter bounds the requests).
  const ahead = judgeLookahead(files.length, (i) => prefetchFileAt(files[i] as string, pool, settings));
  for (const [i, path] of files.entries()) {
    ahead(i);
    let loaded: ReturnType<typeof loadJsonFile>;
    try {
      loaded = loadJsonFile(path);
    } catch (e) {
      failedFiles++;
      process.stderr.write(`tau-rescore: ${terminalSafe((e as Error).message)}\n`);
      continue;
    }
    if (loaded.variant === "not-trajectories") {
      process.stderr.write(`tau-rescore: ${terminalSafe(path)}: not a trajectory file: ${loaded.reason}\n`);
      continue;
    }
    trajectoryFiles++;
    for (const w of duplicateIdWarnings(loaded, path))
      process.stderr.write(`tau-rescore: ${terminalSafe(w)}\n`);
    const version = detectTaskVersion(loaded, dataDir);
    for await (const g of gradeFile(loaded, version, pool, settings)) {
      if (g.row.error !== undefined) errorRows++;
      out.write(`${opts.format === "jsonl" ? JSON.stringify(jsonLine(g)) : tableRow(g)}\n`);
    }
  }
  if (cacheFile !== null) await saveJudgeCache(cacheFile, runtime.cache);
  const judgeFailed = reportJudge(grading.judge);
  // As tau2's evaluate-trajs: nothing graded is a failure, not a quiet success.
  if (trajectoryFiles === 0 && failedFiles === 0)
    throw new InputError(`No trajectory files found in ${paths.map(terminalSafe).join(", ")}`);
  if (failedFiles > 0 || errorRows > 0) {
    throw new InputError(
      `${failedFiles} file(s) failed to load, ${errorRows} simulation(s) could not be graded`,
    );
  }
  if (judgeFailed) process.exitCode = 1;
}

const tableHeader = () =>
  ["task", "trial", "term", "recorded", "tau3", "structured", "db", "basis", "file"].join("\t");

function tableRow(g: GradedSimulation): string {
  const r = g.row;
  const t = g.tau3;
  const s = g.verdicts.structured;
  return [
    r.task_id ?? "-",
    r.trial ?? "-",
    r.termination_reason ?? "-",
    r.recorded_reward ?? "-",
    r.error !== undefined ? `ERROR: ${r.error}` : (t?.reward ?? "unknown"),
    s === undefined
      ? "-"
      : s.pass === null
        ? "unknown"
        : s.pass
          ? "pass"
          : `FAIL(${s.causes
              .filter((c) => c.gates)
              .map(causeLabel)
              .join(",")})`,
    t?.db_match ?? "-",
    t?.basis?.join("+") ?? "-",
    r.file,
  ]
    .map((cell) => terminalSafe(String(cell))) // ids and errors quote the corpus; a tab in one would shift columns
    .join("\t");
}
