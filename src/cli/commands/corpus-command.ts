/**
 * `tau-rescore corpus inspect <paths...> [--json] [--data-dir D]`: a thin layer over `inspectCorpus`.
 * The tau2 data dir (a tau2-bench checkout's `data/tau2`) comes from `--data-dir` or `TAU2_DATA_DIR`
 * (or `--experiment`'s); without it the task version is reported as `unknown`. The fixtures counted are
 * the curated set, `--requirements`' folder, or `--experiment`'s own over the curated set, named below the
 * table.
 */
import { readVariant } from "../../domains/variants.ts";
import { loadExperiment } from "../../experiments/config.ts";
import {
  configurationRepeats,
  type InspectedFile,
  type InspectReport,
  inspectCorpus,
} from "../../formats/inspect.ts";
import type { Task, TrajectoryFile } from "../../formats/model.ts";
import { listTaskSets, loadTaskFile } from "../../formats/tasks.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { describeSource } from "../../graders/sources.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../graders/structured/folders.ts";
import { loadRequirements, type RequirementSet } from "../../graders/structured/requirements/load.ts";
import { countTaskFixtures } from "../../graders/structured/requirements/task-coverage.ts";
import type { FolderSource } from "../../util/layers.ts";
import { optionalDataDir } from "../data-dir.ts";
import { EXIT_INPUT_FAILED, EXIT_OK, UsageError } from "../errors.ts";
import type { CommandIo } from "../io.ts";
import { alignedTable } from "../table.ts";

export interface InspectOptions {
  json?: boolean;
  dataDir?: string;
  requirements?: string;
  experiment?: string;
}

const NO_DATA_DIR_NOTE = "no tau2 data dir (--data-dir or TAU2_DATA_DIR): task versions are unknown";

/** The JSON output: exactly one object. `fixtures`: where the fixtures counted come from. */
function toJson(report: InspectReport, notes: readonly string[], fixtures: string): string {
  const files = report.files.map((f) => ({
    path: f.path,
    variant: f.variant,
    domain: f.domain,
    agent_model: f.agent_model,
    user_model: f.user_model,
    task_version: f.task_version,
    simulations: f.simulations,
    trials: f.trials,
    configuration: f.configuration,
    repeated_tasks: f.repeated_tasks,
    with_reward_info: f.with_reward_info,
    recorded_pass_rate: f.recorded_pass_rate,
    rejected: f.rejected,
    note: f.note,
    error: f.error,
    fixtures: f.fixtures,
  }));
  return `${JSON.stringify({ files, runs: report.runs, totals: report.totals, requirements: fixtures, notes }, null, 2)}\n`;
}

const dash = (v: string | null): string => v ?? "-";

function passText(f: InspectedFile): string {
  if (f.recorded_pass_rate === null) return "-";
  const passes = Math.round(f.recorded_pass_rate * f.simulations);
  return `${passes}/${f.simulations} (${(f.recorded_pass_rate * 100).toFixed(1)}%)`;
}

function toTable(report: InspectReport, notes: readonly string[], fixtures: string): string {
  const loaded = report.files.filter((f) => f.error === null && f.variant !== "not-trajectories");
  const header = [
    "FILE",
    "VARIANT",
    "DOMAIN",
    "AGENT MODEL",
    "USER MODEL",
    "TASKS",
    "SIMS",
    "TRIALS",
    "REPEATED",
    "REWARD_INFO",
    "RECORDED PASS",
    "FIXTURES",
  ];
  // Cells are made terminal-safe before the widths are measured, so the columns stay aligned.
  const rows = loaded.map((f) =>
    [
      f.path,
      dash(f.variant),
      dash(f.domain),
      dash(f.agent_model),
      dash(f.user_model),
      dash(f.task_version),
      String(f.simulations),
      String(f.trials),
      String(f.repeated_tasks),
      String(f.with_reward_info),
      passText(f),
      f.fixtures === null ? "-" : `${f.fixtures.with_fixture}/${f.fixtures.tasks}`,
    ].map(terminalSafe),
  );
  const out = [alignedTable([header, ...rows])];
  if (report.runs.length > 0) {
    out.push("", "Per-simulation folders read as one run:");
    for (const r of report.runs) {
      const pass = r.recorded_pass_rate === null ? "-" : `${(r.recorded_pass_rate * 100).toFixed(1)}%`;
      out.push(
        `  ${r.folder}: ${r.files} files (${r.variant}), ${r.simulations} simulations, ${r.trials} trial(s) per task, ${dash(r.domain)}, agent ${dash(r.agent_model)}, recorded pass ${pass}`,
      );
    }
  }
  const repeats = configurationRepeats(loaded).filter((c) => c.repeated_tasks > 0);
  out.push(
    "",
    repeats.length === 0
      ? "Run configurations with repeated tasks: none (no run-to-run noise can be measured)"
      : "Run configurations with repeated tasks (repeats: one task more than once under one configuration):",
  );
  for (const c of repeats)
    out.push(`  ${c.configuration}: ${c.files} file(s), ${c.repeated_tasks} of ${c.tasks} tasks repeated`);
  const other = report.files.filter((f) => f.variant === "not-trajectories");
  // Pushed line by line, not spread into push: a corpus may list more files than a call takes arguments.
  if (other.length > 0) {
    out.push("", "Not trajectory files:");
    for (const f of other) out.push(`  ${f.path}: ${f.note}`);
  }
  const rejected = report.files.filter((f) => f.rejected > 0);
  if (rejected.length > 0) {
    out.push("", "Rejected simulations:");
    for (const f of rejected) {
      for (const r of f.rejections)
        out.push(`  ${f.path}: #${r.index}${r.id ? ` (${r.id})` : ""} at ${r.path}: ${r.reason}`);
    }
  }
  const failed = report.files.filter((f) => f.error !== null);
  if (failed.length > 0) {
    out.push("", "Failed files:");
    for (const f of failed) out.push(`  ${f.path}: ${f.error}`);
  }
  const t = report.totals;
  out.push(
    "",
    `${t.files} files, ${t.trajectory_files} with trajectories, ${t.simulations} simulations, ${t.failed_files} failed`,
    `fixtures: ${fixtures}`,
  );
  for (const n of notes) out.push(`note: ${n}`);
  // The table (out[0]) is made of safe cells; every other line quotes names and reasons as they are.
  return `${out.map((l, i) => (i === 0 ? l : terminalSafe(l))).join("\n")}\n`;
}

/**
 * Per file: of its tasks, how many a requirement fixture applies to (the structured grader's rule: a
 * fixture for the task whose quotes all stand in the task text). The text is the file's own tasks, or
 * the data dir's head set for a file that embeds none; a variant's base's fixtures count too.
 */
function fixtureCounter(reqs: RequirementSet, dataDir: string | null) {
  const headSets = new Map<string, ReadonlyMap<string, Task> | null>();
  const headSet = (domain: string): ReadonlyMap<string, Task> | null => {
    if (dataDir === null) return null;
    if (!headSets.has(domain)) {
      let tasks: ReadonlyMap<string, Task> | null = null;
      try {
        const head = listTaskSets(dataDir, domain).find((s) => s.name === "head");
        if (head !== undefined) tasks = new Map(loadTaskFile(head.path).map((t) => [t.id, t]));
      } catch {
        // Not counted: a domain the data dir lacks, or a task set that fails, is reported when graded.
      }
      headSets.set(domain, tasks);
    }
    return headSets.get(domain) ?? null;
  };
  return (file: TrajectoryFile) => {
    const domain = file.info.domain;
    if (domain === null || file.variant === "tau-bench-v1") return null;
    let base: string | null = null;
    try {
      base = dataDir === null ? null : (readVariant(dataDir, domain)?.base ?? null);
    } catch {
      // A variant.json that cannot be read is reported when the file is graded.
    }
    const tasks =
      file.tasks !== null && file.tasks.length > 0
        ? new Map(file.tasks.map((t) => [t.id, t]))
        : headSet(base ?? domain);
    if (tasks === null) return null;
    return countTaskFixtures(
      reqs,
      base === null ? [domain] : [domain, base],
      file.simulations.map((s) => s.task_id),
      tasks,
    );
  };
}

/** Describes the files of `paths`; returns the exit status (1 when a file or simulation was rejected). */
export function corpusInspect(paths: string[], options: InspectOptions, io: CommandIo): number {
  if (options.experiment !== undefined && options.requirements !== undefined)
    throw new UsageError("corpus inspect: --requirements and --experiment both name the fixtures: pass one");
  const exp = options.experiment === undefined ? null : loadExperiment(options.experiment);
  const dataDir = optionalDataDir(options.dataDir, io.env) ?? exp?.dataDir ?? null;
  const source: FolderSource = exp?.requirementsDir ?? options.requirements ?? BUILTIN_REQUIREMENTS_DIR;
  const reqs = loadRequirements(source);
  const report = inspectCorpus(paths, { dataDir, countFixtures: fixtureCounter(reqs, dataDir) });
  const notes = dataDir === null ? [NO_DATA_DIR_NOTE] : [];
  const fixtures = describeSource("requirements", source);
  io.stdout.write(options.json ? toJson(report, notes, fixtures) : toTable(report, notes, fixtures));
  const inputFailed = report.totals.failed_files > 0 || report.files.some((f) => f.rejected > 0);
  return inputFailed ? EXIT_INPUT_FAILED : EXIT_OK;
}
