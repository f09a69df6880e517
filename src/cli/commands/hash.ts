/** `tau-rescore hash`: per-task DB hashes after initialisation and of the gold target. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { TAU2_QUIRKS } from "../../domains/quirks.ts";
import { domainByName, loadDomainData } from "../../domains/registry.ts";
import { listTaskSets, loadTaskFile } from "../../formats/tasks.ts";
import { GradingContext } from "../../graders/context.ts";
import { taskHashes } from "../../pipeline/hash-report.ts";
import { resolveDataDir } from "../data-dir.ts";
import { InputError, UsageError } from "../errors.ts";

interface HashOptions {
  dataDir?: string;
  domain: string;
  tasksFile?: string;
  task?: string[];
  gold?: boolean;
  format: string;
}

export function registerHashCommand(program: Command): void {
  program
    .command("hash")
    .description("print tau2 DB hashes per task: after initialisation and (with --gold) of the gold target")
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .requiredOption("--domain <name>", "airline | retail | telecom | mock | banking_knowledge")
    .option(
      "--tasks-file <file>",
      "task file or task directory (default: <data-dir>/domains/<domain>/tasks.json; banking: …/tasks/)",
    )
    .option("--task <id...>", "only these task ids")
    .option("--gold", "also replay the gold actions: gold_target hashes and each action's result")
    .option("--format <fmt>", "jsonl", "jsonl")
    .action((opts: HashOptions) => runHash(opts));
}

function runHash(opts: HashOptions): void {
  if (opts.format !== "jsonl") throw new UsageError(`unsupported --format ${opts.format} (only jsonl)`);
  const dataDir = resolveDataDir(opts.dataDir);
  const domain = domainByName(opts.domain);
  if (domain === undefined)
    throw new UsageError(`unknown domain ${opts.domain} (airline, retail, telecom, mock, banking_knowledge)`);
  const head = listTaskSets(dataDir, domain.name).find((s) => s.name === "head")?.path;
  const tasksFile = opts.tasksFile ?? head ?? join(dataDir, "domains", domain.name, "tasks.json");
  if (!existsSync(tasksFile)) {
    throw new UsageError(`no task file ${tasksFile}; pass --tasks-file (telecom ships tasks_small.json)`);
  }
  let tasks = loadTaskFile(tasksFile);
  if (opts.task !== undefined) {
    const wanted = new Set(opts.task);
    const missing = [...wanted].filter((id) => !tasks.some((t) => t.id === id));
    if (missing.length > 0) throw new UsageError(`task id(s) not in ${tasksFile}: ${missing.join(", ")}`);
    tasks = tasks.filter((t) => wanted.has(t.id));
  }
  const ctx = new GradingContext(loadDomainData(dataDir, domain), TAU2_QUIRKS);
  let failed = 0;
  for (const task of tasks) {
    const row = taskHashes(ctx, task, opts.gold === true);
    if ("error" in row) failed++;
    process.stdout.write(`${JSON.stringify(row)}\n`);
  }
  if (failed > 0) throw new InputError(`${failed} task(s) could not be initialised`);
}
