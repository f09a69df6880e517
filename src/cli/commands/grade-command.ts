/** `tau-rescore grade` as a library function: flags in, JSON lines or table rows out. */

import { existsSync } from "node:fs";
import { parseDomainAs, VariantError } from "../../domains/variants.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { BUILTIN_CORRECTIONS_DIR } from "../../graders/corrections/folder.ts";
import { buildGradingSpec, type GradingChoice, loadGrading } from "../../graders/spec.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../../graders/structured/folders.ts";
import { DELTA_MODES, gatesFromWords } from "../../graders/structured/gate-names.ts";
import { ContextPool } from "../../pipeline/contexts.ts";
import { jsonLine } from "../../pipeline/grade.ts";
import { gradeFiles, NO_SIMULATIONS } from "../../pipeline/grade-files.ts";
import { listInputFiles } from "../../pipeline/inputs.ts";
import { resolveDataDir } from "../data-dir.ts";
import { judgeDefaults, judgeSecrets } from "../env.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CommandIo, Env } from "../io.ts";
import type { JudgeRuntimeOptions } from "../judge-flags.ts";
import { checkJudgeEndpoint, judgeRuntime, reportJudge } from "../judge-options.ts";
import { emptyFileRow, tableHeader, tableWriter } from "./grade-table.ts";

export interface GradeOptions extends JudgeRuntimeOptions {
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
  domainAs?: string[];
  quirks: string;
  quirk?: string[];
  requirements?: string;
  policies?: string;
  handoffOverrides?: string;
  gate?: string;
  deltaGate: string;
  policyClauses: string;
}

/** The flags as the grading choices `run` makes from an experiment config. */
function choiceOf(opts: GradeOptions, envVars: Env): GradingChoice {
  if (opts.format !== "jsonl" && opts.format !== "table")
    throw new UsageError(`unknown --format ${opts.format} (jsonl, table)`);
  if (opts.corrections !== "off" && opts.corrections !== "on")
    throw new UsageError("--corrections takes on or off");
  if (!["recorded", "http", "none"].includes(opts.judge))
    throw new UsageError(`unknown --judge ${opts.judge} (recorded, http, none)`);
  if (!(DELTA_MODES as readonly string[]).includes(opts.deltaGate))
    throw new UsageError(`unknown --delta-gate ${opts.deltaGate} (${DELTA_MODES.join(", ")})`);
  if (opts.policyClauses !== "on" && opts.policyClauses !== "off")
    throw new UsageError("--policy-clauses takes on or off");
  const list = (s: string | undefined) =>
    (s ?? "")
      .split(",")
      .map((x) => x.trim())
      .filter((x) => x !== "");
  const graders = list(opts.grader);
  const gate = list(opts.gate);
  const env = judgeDefaults(envVars);
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
    domainAs: domainAsOf(opts.domainAs ?? []),
    requirementsDir: opts.requirements ?? BUILTIN_REQUIREMENTS_DIR,
    policiesDir: opts.policies ?? BUILTIN_POLICIES_DIR,
    correctionsDir: opts.correctionsDir ?? BUILTIN_CORRECTIONS_DIR,
    handoffOverrides: opts.handoffOverrides ?? null,
    gate: gatesFromWords(gate, opts.policyClauses === "on", opts.deltaGate),
  };
}

/** `--domain-as NAME=BASE` pairs; a malformed one is a usage mistake. */
function domainAsOf(pairs: readonly string[]): Record<string, string> {
  try {
    return parseDomainAs(pairs);
  } catch (e) {
    if (e instanceof VariantError) throw new UsageError(e.message);
    throw e;
  }
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

/** Grades every simulation of `paths`; returns the exit status (1 when a judgement failed). */
export async function gradeCommand(paths: string[], opts: GradeOptions, io: CommandIo): Promise<number> {
  // A typo in a path is a usage mistake, found before anything is graded (as `run --corpus`).
  for (const p of paths) if (!existsSync(p)) throw new UsageError(`${p}: no such file or directory`);
  const choice = choiceOf(opts, io.env);
  if (opts.gate !== undefined && !choice.graders.includes("structured"))
    throw new UsageError("--gate applies to the structured grader: use --grader tau3,structured");
  const runtime = judgeRuntime(opts, io.stderr);
  const grading = await loadGrading(
    buildGradingSpec(choice),
    judgeSecrets(io.env, opts.judgeApiKey),
    runtime,
  );
  const live = grading.spec.judge.mode === "http";
  if (opts.judgeCache !== undefined && !live) throw new UsageError("--judge-cache applies to --judge http");
  if (live)
    await checkJudgeEndpoint(grading.spec.judge.mode === "http" ? grading.spec.judge.base_url : undefined);
  // DuckDB loads only for a judge cache: it is most of a small grade's start-up.
  const judgeCache = opts.judgeCache === undefined ? null : await import("../judge-cache.ts");
  const cacheFile =
    opts.judgeCache === undefined || judgeCache === null
      ? null
      : await judgeCache.loadJudgeCache(opts.judgeCache, runtime.cache);
  for (const p of grading.graders.structured?.requirements?.problems ?? [])
    io.stderr.write(`tau-rescore: requirement fixture rejected: ${p.path}: ${p.message}\n`);
  const dataDir = resolveDataDir(opts.dataDir, io.env);
  const pool = new ContextPool(dataDir, grading.quirks);
  const settings = {
    judge: grading.judge,
    fallbackTaskVersion: grading.fallbackTaskVersion,
    graders: grading.graders,
    domainAs: grading.domainAs,
  };
  const files = listInputFiles(paths);
  const out = io.stdout;
  if (opts.format === "table") out.write(`${tableHeader()}\n`);
  const table = tableWriter((line) => out.write(`${line}\n`));
  const { trajectoryFiles, failedFiles, errorRows } = await gradeFiles(files, dataDir, pool, settings, {
    simulation: (g) =>
      opts.format === "jsonl" ? out.write(`${JSON.stringify(jsonLine(g))}\n`) : table.simulation(g),
    problem: (line) => {
      table.flush();
      io.stderr.write(`tau-rescore: ${line}\n`);
    },
    emptyFile: (path) =>
      out.write(
        `${opts.format === "jsonl" ? JSON.stringify({ file: path, simulations: 0, error: NO_SIMULATIONS }) : emptyFileRow(path, NO_SIMULATIONS)}\n`,
      ),
  });
  table.flush();
  if (cacheFile !== null && judgeCache !== null) await judgeCache.saveJudgeCache(cacheFile, runtime.cache);
  const judgeFailed = reportJudge(grading.judge, io.stderr);
  // As tau2's evaluate-trajs: nothing graded is a failure, not a quiet success.
  if (trajectoryFiles === 0 && failedFiles === 0)
    throw new InputError(`No trajectory files found in ${paths.map(terminalSafe).join(", ")}`);
  if (failedFiles > 0 || errorRows > 0) {
    throw new InputError(
      `${failedFiles} file(s) failed to load, ${errorRows} simulation(s) could not be graded`,
    );
  }
  return judgeFailed ? 1 : 0;
}
