/** `tau-rescore grade` as a library function: flags in, JSON lines or table rows out. */

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseDomainAs, VariantError } from "../../domains/variants.ts";
import { importGraderModules } from "../../experiments/grader-modules.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { BUILTIN_CORRECTIONS_DIR } from "../../graders/corrections/folder.ts";
import { loadGrading } from "../../graders/load.ts";
import { GRADER_MODULE_TIMEOUT_SECONDS } from "../../graders/module-checks.ts";
import { isBuiltInGraderId } from "../../graders/registry.ts";
import { buildGradingSpec, type GradingChoice } from "../../graders/spec.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../../graders/structured/folders.ts";
import { DELTA_MODES, gatesFromWords } from "../../graders/structured/gate-names.ts";
import { ContextPool } from "../../pipeline/contexts.ts";
import { type GradeFilesSummary, gradeFiles } from "../../pipeline/grade-files.ts";
import { listInputFiles } from "../../pipeline/inputs.ts";
import type { WorkerInit } from "../../pipeline/settings.ts";
import { LIMITS } from "../../util/limits.ts";
import { numberArg } from "../args.ts";
import { resolveDataDir } from "../data-dir.ts";
import { gradeTuning, judgeDefaults, judgeSecrets } from "../env.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CommandIo, Env } from "../io.ts";
import type { JudgeRuntimeOptions } from "../judge-flags.ts";
import { checkJudgeEndpoint, judgeRuntime, reportJudge } from "../judge-options.ts";
import {
  FILE_LINES_TASK,
  type FileLines,
  type GradeFormat,
  type GradeLines,
  gradeSink,
} from "./grade-output.ts";
import { tableHeader } from "./grade-table.ts";

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
  graderModule?: string[];
  graderConfig?: string[];
  graderTimeout?: string;
}

/** The flags as the grading choices `run` makes from an experiment config (`show` grades with them too). */
export function choiceOf(opts: Omit<GradeOptions, keyof JudgeRuntimeOptions>, envVars: Env): GradingChoice {
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

/**
 * `--grader-config ID=JSON` pairs, by id: each for a grader of this command's `--grader-module`s
 * (`modules`, their ids) and selected; a mistake is a usage error, one line.
 */
function graderConfigOf(
  pairs: readonly string[],
  modules: readonly string[],
  selected: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw new UsageError(`--grader-config takes ID=JSON (got ${JSON.stringify(pair)})`);
    const id = pair.slice(0, at);
    const flag = `--grader-config ${id}`;
    if (isBuiltInGraderId(id))
      throw new UsageError(`${flag}: a built-in grader takes its settings from grade's own flags`);
    if (!modules.includes(id))
      throw new UsageError(
        `${flag}: no grader ${id} comes from a --grader-module (${modules.length === 0 ? "none given" : modules.join(", ")})`,
      );
    if (!selected.includes(id))
      throw new UsageError(`${flag}: grader ${id} is not selected (add it to --grader)`);
    if (Object.hasOwn(out, id)) throw new UsageError(`${flag}: given twice`);
    try {
      out[id] = JSON.parse(pair.slice(at + 1));
    } catch (e) {
      throw new UsageError(`${flag}: not JSON: ${(e as Error).message}`);
    }
  }
  return out;
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
  const modules = (opts.graderModule ?? []).map((p) => resolve(p));
  // The variables apply to grader modules only: without one, grade reads them not at all.
  const tuning = modules.length === 0 ? {} : gradeTuning(io.env);
  const moduleTimeout =
    opts.graderTimeout === undefined
      ? (tuning.graderModuleTimeoutSeconds ?? GRADER_MODULE_TIMEOUT_SECONDS)
      : numberArg("--grader-timeout", opts.graderTimeout, LIMITS.graderModuleTimeout);
  // Registered before the spec is built: --grader names their ids (a load that fails is exit 2).
  const moduleIds = await importGraderModules(modules);
  const chosen = choiceOf(opts, io.env);
  const choice = {
    ...chosen,
    graderConfig: graderConfigOf(opts.graderConfig ?? [], moduleIds, chosen.graders),
  };
  if (opts.gate !== undefined && !choice.graders.includes("structured"))
    throw new UsageError("--gate applies to the structured grader: use --grader tau3,structured");
  const runtime = judgeRuntime(opts, io.stderr);
  const secrets = judgeSecrets(io.env, opts.judgeApiKey);
  const grading = await loadGrading(buildGradingSpec(choice), secrets, runtime);
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
  const files = listInputFiles(paths);
  const format = opts.format as GradeFormat;
  const lines: GradeLines = {
    out: (line) => io.stdout.write(`${line}\n`),
    problem: (line) => io.stderr.write(`tau-rescore: ${line}\n`),
  };
  if (format === "table") lines.out(tableHeader());
  // Grader modules grade as `run` grades them: in grading threads, unless grading must stay here.
  const threads = modules.length === 0 ? null : await import("../../pipeline/parallel.ts");
  let summary: GradeFilesSummary;
  if (threads !== null && !threads.gradingStaysHere(grading.judge, modules)) {
    const init: WorkerInit = {
      spec: grading.spec,
      secrets,
      graderModules: modules,
      dataDir,
      // Grading alone: no run, exclusions or stored files.
      runId: "",
      exclusions: [],
      conversations: "disagreements",
      compareRecorded: false,
      committed: [],
    };
    summary = await gradeInThreads(files, init, format, moduleTimeout, tuning.workers, lines);
  } else {
    if (threads !== null)
      for (const m of threads.modulesThreadsCannotLoad(modules))
        lines.problem(threads.typescriptModuleWarning(m));
    const settings = {
      judge: grading.judge,
      fallbackTaskVersion: grading.fallbackTaskVersion,
      graders: grading.graders,
      domainAs: grading.domainAs,
      // Here a module's limit stops a promise that never settles, not a loop (a thread is what stops one).
      ...(modules.length > 0 ? { graderModuleTimeoutSeconds: moduleTimeout } : {}),
    };
    const sink = gradeSink(format, lines);
    summary = await gradeFiles(files, dataDir, new ContextPool(dataDir, grading.quirks), settings, sink);
    sink.flush();
  }
  const { trajectoryFiles, failedFiles, errorRows } = summary;
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

/**
 * Grades the files in grading threads, as `run` grades grader modules: the main thread times each
 * simulation a module grades and replaces a thread over the limit. Each file's lines come back whole
 * and are written in file order.
 */
async function gradeInThreads(
  files: readonly string[],
  init: WorkerInit,
  format: GradeFormat,
  moduleTimeoutSeconds: number,
  workers: number | undefined,
  lines: GradeLines,
): Promise<GradeFilesSummary> {
  const { gradeInWorkers, inputBytes, workerCount } = await import("../../pipeline/parallel.ts");
  const jobs = files.map((full) => ({ full, path: full }));
  const order = new Map(files.map((f, i) => [f, i]));
  const held = new Map<number, FileLines>();
  const total = { trajectoryFiles: 0, failedFiles: 0, errorRows: 0 };
  let next = 0;
  const count = workerCount(jobs.length, inputBytes(jobs), workers);
  const perFile = FILE_LINES_TASK[format];
  for await (const r of gradeInWorkers<FileLines>(jobs, init, count, { moduleTimeoutSeconds, perFile })) {
    held.set(order.get(r.path) as number, r);
    for (let done = held.get(next); done !== undefined; done = held.get(next)) {
      held.delete(next++);
      for (const line of done.problems) lines.problem(line);
      for (const line of done.out) lines.out(line);
      total.trajectoryFiles += done.summary.trajectoryFiles;
      total.failedFiles += done.summary.failedFiles;
      total.errorRows += done.summary.errorRows;
    }
  }
  return total;
}
