/** `tau-rescore hash` as a library function: one JSON line per task. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { TAU2_QUIRKS } from "../../domains/quirks.ts";
import { domainByName, loadDomainData } from "../../domains/registry.ts";
import { listTaskSets, loadTaskFile } from "../../formats/tasks.ts";
import { GradingContext } from "../../graders/context.ts";
import { taskHashes } from "../../pipeline/hash-report.ts";
import { resolveDataDir } from "../data-dir.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CommandIo } from "../io.ts";

export interface HashOptions {
  dataDir?: string;
  domain: string;
  tasksFile?: string;
  task?: string[];
  gold?: boolean;
  format: string;
}

export function hashCommand(opts: HashOptions, io: CommandIo): void {
  if (opts.format !== "jsonl") throw new UsageError(`unsupported --format ${opts.format} (only jsonl)`);
  const dataDir = resolveDataDir(opts.dataDir, io.env);
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
    io.stdout.write(`${JSON.stringify(row)}\n`);
  }
  if (failed > 0) throw new InputError(`${failed} task(s) could not be initialised`);
}
