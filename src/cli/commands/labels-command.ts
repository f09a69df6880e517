/** `tau-rescore labels` as a library function: the label file on stdout or in `--out`. */
import { writeFileSync } from "node:fs";
import { DOMAINS, domainByName } from "../../domains/registry.ts";
import { listTaskSets, loadTaskFile } from "../../formats/tasks.ts";
import { buildLabelFile, loadOverrides } from "../../graders/structured/handoff.ts";
import { existingFile, outputFileArg } from "../args.ts";
import { resolveDataDir } from "../data-dir.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CommandIo } from "../io.ts";

export interface LabelOptions {
  dataDir?: string;
  domain: string;
  taskVersion?: string;
  overrides?: string;
  out?: string;
}

export function labelsCommand(opts: LabelOptions, io: CommandIo): void {
  const dataDir = resolveDataDir(opts.dataDir, io.env);
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
  if (opts.out === undefined) io.stdout.write(text);
  else writeFileSync(opts.out, text);
}
