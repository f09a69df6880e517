/** `tau-rescore show` as a library function (see `show.ts` for what it prints). */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { selectRun } from "../../analysis/run.ts";
import { terminalSafe } from "../../formats/terminal-text.ts";
import { loadGrading } from "../../graders/load.ts";
import { buildGradingSpec } from "../../graders/spec.ts";
import { DEFAULT_DELTA_MODE, SWITCH_GATES } from "../../graders/structured/gate-names.ts";
import { showFromFile } from "../../show/file.ts";
import { renderJson, renderText } from "../../show/render.ts";
import { showFromStore } from "../../show/store.ts";
import type { SimulationView } from "../../show/view.ts";
import { resolveDataDir } from "../data-dir.ts";
import { judgeSecrets } from "../env.ts";
import { InputError, UsageError } from "../errors.ts";
import type { CommandIo } from "../io.ts";
import { memoryLimitOf } from "../memory-limit.ts";
import { openStoreReadOnly } from "../report-store.ts";
import { checkRunOf, experimentFor } from "../reviews-source.ts";
import { choiceOf } from "./grade-command.ts";

export interface ShowOptions {
  experiment?: string;
  db?: string;
  run?: string;
  path?: string;
  json?: boolean;
  memoryLimit?: string;
  // With a trajectory file:
  dataDir?: string;
  grader?: string;
  requirements?: string;
  policies?: string;
  gate?: string;
  deltaGate?: string;
  policyClauses?: string;
  judge?: string;
  corrections?: string;
  fallbackTaskVersion?: string;
  domainAs?: string[];
  quirks?: string;
}

/** The graders `show FILE` grades with unless `--grader` says. */
export const SHOW_GRADERS = "tau3,structured";

const STORE_FLAGS = [
  ["experiment", "--experiment"],
  ["db", "--db"],
  ["run", "--run"],
  ["path", "--path"],
  ["memoryLimit", "--memory-limit"],
] as const satisfies readonly (readonly [keyof ShowOptions, string])[];

const FILE_FLAGS = [
  ["dataDir", "--data-dir"],
  ["grader", "--grader"],
  ["requirements", "--requirements"],
  ["policies", "--policies"],
  ["gate", "--gate"],
  ["deltaGate", "--delta-gate"],
  ["policyClauses", "--policy-clauses"],
  ["judge", "--judge"],
  ["corrections", "--corrections"],
  ["fallbackTaskVersion", "--fallback-task-version"],
  ["domainAs", "--domain-as"],
  ["quirks", "--quirks"],
] as const satisfies readonly (readonly [keyof ShowOptions, string])[];

function refuse(
  opts: ShowOptions,
  flags: readonly (readonly [keyof ShowOptions, string])[],
  why: string,
): void {
  const given = flags.filter(([k]) => opts[k] !== undefined).map(([, f]) => f);
  if (given.length > 0) throw new UsageError(`${given.join(", ")}: ${why}`);
}

async function fromStore(id: string, opts: ShowOptions): Promise<SimulationView> {
  const exp =
    opts.experiment === undefined
      ? null
      : experimentFor(opts.experiment, opts.db === undefined ? {} : { db: opts.db });
  const db = exp?.output ?? (opts.db === undefined ? undefined : resolve(opts.db));
  if (db === undefined)
    throw new UsageError("show: pass --db <file> or --experiment <file>, or a trajectory file after the id");
  const store = await openStoreReadOnly(
    db,
    memoryLimitOf(opts.memoryLimit, exp?.config.duckdb?.memory_limit),
  );
  try {
    const selected = await selectRun(store, opts.run);
    const run = exp === null ? selected : checkRunOf(selected, exp.config.name, db);
    if (run === null)
      throw new InputError(
        `${db} has no completed run (run the experiment first: tau-rescore run <experiment>)`,
      );
    return await showFromStore(
      store,
      run,
      { id, ...(opts.path === undefined ? {} : { path: opts.path }) },
      db,
    );
  } finally {
    store.close();
  }
}

async function fromFile(id: string, file: string, opts: ShowOptions, io: CommandIo): Promise<SimulationView> {
  if (!existsSync(file)) throw new UsageError(`${file}: no such file`);
  const judge = opts.judge ?? "recorded";
  if (judge !== "recorded" && judge !== "none")
    throw new UsageError(`unknown --judge ${judge} (recorded, none; a live judge grades with \`grade\`)`);
  const choice = choiceOf(
    {
      grader: opts.grader ?? SHOW_GRADERS,
      format: "jsonl",
      judge,
      corrections: opts.corrections ?? "off",
      fallbackTaskVersion: opts.fallbackTaskVersion ?? "head",
      quirks: opts.quirks ?? "tau2",
      deltaGate: opts.deltaGate ?? DEFAULT_DELTA_MODE,
      policyClauses: opts.policyClauses ?? (SWITCH_GATES.policy_clauses ? "on" : "off"),
      ...(opts.domainAs === undefined ? {} : { domainAs: opts.domainAs }),
      ...(opts.requirements === undefined ? {} : { requirements: opts.requirements }),
      ...(opts.policies === undefined ? {} : { policies: opts.policies }),
      ...(opts.gate === undefined ? {} : { gate: opts.gate }),
    },
    io.env,
  );
  if (opts.gate !== undefined && !choice.graders.includes("structured"))
    throw new UsageError("--gate applies to the structured grader: use --grader tau3,structured");
  const dataDir = resolveDataDir(opts.dataDir, io.env);
  const grading = await loadGrading(buildGradingSpec(choice), judgeSecrets(io.env));
  for (const p of grading.graders.structured?.requirements?.problems ?? [])
    io.stderr.write(`tau-rescore: requirement fixture rejected: ${p.path}: ${p.message}\n`);
  return await showFromFile({
    id,
    file,
    dataDir,
    grading,
    warn: (line) => io.stderr.write(`tau-rescore: ${terminalSafe(line)}\n`),
  });
}

/** Prints one simulation with its verdicts, causes and conversation, from a store or graded from a file. */
export async function showCommand(
  id: string,
  file: string | undefined,
  opts: ShowOptions,
  io: CommandIo,
): Promise<void> {
  if (file === undefined) refuse(opts, FILE_FLAGS, "only with a trajectory file given after the id");
  else
    refuse(
      opts,
      STORE_FLAGS,
      "only without a trajectory file (a file's simulation is graded now, not read from a store)",
    );
  const view = file === undefined ? await fromStore(id, opts) : await fromFile(id, file, opts, io);
  io.stdout.write(opts.json === true ? renderJson(view) : renderText(view));
}
