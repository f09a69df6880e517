/** `tau-rescore grade`: one JSON line (or a table row) per simulation, with each selected grader's verdict. */
import type { Command } from "commander";
import { TAU2_QUIRKS } from "../../domains/quirks.ts";
import { loadJsonFile } from "../../formats/load.ts";
import { detectTaskVersion } from "../../formats/task-version.ts";
import { noJudge, recordedJudge, type NlJudge } from "../../graders/tau3/nl.ts";
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
  corrections: string;
  fallbackTaskVersion: string;
}

export function registerGradeCommand(program: Command): void {
  program
    .command("grade")
    .description("grade every simulation of the given trajectory files (or directories)")
    .argument("<paths...>", "trajectory files or directories")
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .option("--grader <list>", "comma-separated graders: tau3", "tau3")
    .option("--format <fmt>", "jsonl | table", "jsonl")
    .option("--judge <mode>", "NL-assertion judge: recorded | none", "recorded")
    .option("--corrections <on|off>", "apply the gold-action corrections overlay", "off")
    .option("--fallback-task-version <name>", "task set for files that embed no tasks", "head")
    .action((paths: string[], opts: GradeOptions) => runGrade(paths, opts));
}

function judgeFor(mode: string): NlJudge {
  if (mode === "recorded") return recordedJudge;
  if (mode === "none") return noJudge;
  throw new UsageError(`unknown --judge ${mode} (recorded, none)`);
}

async function runGrade(paths: string[], opts: GradeOptions): Promise<void> {
  const graders = opts.grader.split(",").map((g) => g.trim());
  for (const g of graders) if (g !== "tau3") throw new UsageError(`unknown grader ${g} (tau3)`);
  if (opts.format !== "jsonl" && opts.format !== "table") throw new UsageError(`unknown --format ${opts.format}`);
  if (opts.corrections !== "off" && opts.corrections !== "on") throw new UsageError("--corrections takes on or off");
  const dataDir = resolveDataDir(opts.dataDir);
  const judge = judgeFor(opts.judge);
  const pool = new ContextPool(dataDir, TAU2_QUIRKS);
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
    for await (const g of gradeFile(loaded, version, pool, { judge, fallbackTaskVersion: opts.fallbackTaskVersion })) {
      if (g.row.error !== undefined) errorRows++;
      out.write(`${opts.format === "jsonl" ? JSON.stringify(g.row) : tableRow(g.row)}\n`);
    }
  }
  if (failedFiles > 0 || errorRows > 0) {
    throw new InputError(`${failedFiles} file(s) failed to load, ${errorRows} simulation(s) could not be graded`);
  }
}

const tableHeader = () =>
  ["task", "trial", "term", "recorded", "tau3", "db", "basis", "file"].join("\t");

function tableRow(r: SimulationRow): string {
  const t = r.tau3;
  return [
    r.task_id ?? "-",
    r.trial ?? "-",
    r.termination_reason ?? "-",
    r.recorded_reward ?? "-",
    r.error !== undefined ? `ERROR: ${r.error}` : (t?.reward ?? "unknown"),
    t?.db_match ?? "-",
    t?.basis?.join("+") ?? "-",
    r.file,
  ].join("\t");
}
