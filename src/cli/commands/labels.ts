/** `tau-rescore labels`: the hand-off label file of a task set (should the agent transfer, and by which rule). */
import { writeFileSync } from "node:fs";
import type { Command } from "commander";
import { DOMAINS, domainByName } from "../../domains/registry.ts";
import { listTaskSets, loadTaskFile } from "../../formats/tasks.ts";
import { buildLabelFile, loadOverrides } from "../../graders/structured/handoff.ts";
import { existingFile, outputFileArg } from "../args.ts";
import { resolveDataDir } from "../data-dir.ts";
import { InputError, UsageError } from "../errors.ts";

interface LabelOptions {
  dataDir?: string;
  domain: string;
  taskVersion?: string;
  overrides?: string;
  out?: string;
}

export function registerLabelsCommand(program: Command): void {
  program
    .command("labels")
    .description(
      "write the hand-off labels of a task set: should_transfer per task, its rule, and the task file's sha256",
    )
    .option("--data-dir <dir>", "tau2 data dir (data/tau2 of a tau2-bench checkout); default $TAU2_DATA_DIR")
    .requiredOption("--domain <name>", "airline | retail | telecom | mock | banking_knowledge")
    .option(
      "--task-version <name>",
      "task set (head, head/tasks_small, v0.2.0_f8de30c, ...); default: the first",
    )
    .option(
      "--overrides <file>",
      "reviewed overrides {domains: {<domain>: {<task id>: {should_transfer, reason}}}}",
    )
    .option("--out <file>", "write the label file here instead of stdout")
    .action((opts: LabelOptions) => labelsCommand(opts));
}

function labelsCommand(opts: LabelOptions): void {
  const dataDir = resolveDataDir(opts.dataDir);
  const domain = domainByName(opts.domain);
  if (domain === undefined)
    throw new UsageError(`unknown domain ${opts.domain} (${Object.keys(DOMAINS).join(", ")})`);
  const sets = listTaskSets(dataDir, domain.name);
  const set = opts.taskVersion === undefined ? sets[0] : sets.find((s) => s.name === opts.taskVersion);
  if (set === undefined) {
    throw new UsageError(
      `no task set ${opts.taskVersion ?? ""} for ${domain.name} (have: ${sets.map((s) => s.name).join(", ")})`,
    );
  }
  if (opts.overrides !== undefined) existingFile("--overrides", opts.overrides);
  if (opts.out !== undefined) outputFileArg("--out", opts.out);
  let overrides = null;
  try {
    overrides = opts.overrides === undefined ? null : loadOverrides(opts.overrides);
  } catch (e) {
    throw new InputError((e as Error).message);
  }
  const file = buildLabelFile(domain.name, set.name, set.path, loadTaskFile(set.path), overrides);
  const text = `${JSON.stringify(file, null, 2)}\n`;
  if (opts.out === undefined) process.stdout.write(text);
  else writeFileSync(opts.out, text);
}
