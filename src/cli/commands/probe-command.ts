/** `tau-rescore probe` as a library function. */

import { writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { DOMAINS } from "../../domains/registry.ts";
import { listTaskSets } from "../../formats/tasks.ts";
import { BUILTIN_POLICIES_DIR, BUILTIN_REQUIREMENTS_DIR } from "../../graders/structured/folders.ts";
import { runCensus } from "../../probes/census.ts";
import { writeCensusTable } from "../../probes/census-store.ts";
import { formatCensus } from "../../probes/census-text.ts";
import {
  type CensusSources,
  censusInWorkers,
  censusSetup,
  censusSources,
} from "../../probes/census-thread.ts";
import { isProbeKind, PROBE_KINDS } from "../../probes/kind.ts";
import { type ProbeSetup, probeFileFor } from "../../probes/verdicts.ts";
import { existingFolder, outputFileArg } from "../args.ts";
import { resolveDataDir } from "../data-dir.ts";
import { runTuning } from "../env.ts";
import { UsageError } from "../errors.ts";
import { onInterrupt } from "../interrupt.ts";
import type { CommandIo } from "../io.ts";
import { memoryLimitOf } from "../memory-limit.ts";

export interface ProbeOptions {
  dataDir?: string;
  domain?: string;
  taskVersion?: string;
  kind?: string;
  out?: string;
  census?: boolean;
  json?: boolean;
  db?: string;
  requirements?: string;
  policies?: string;
  memoryLimit?: string;
}

/** Writes one probe file, or with `--census` runs the census. */
export function probeCommand(opts: ProbeOptions, io: CommandIo): Promise<void> {
  return opts.census === true ? census(opts, io) : writeProbe(opts, io);
}

function sourcesOf(opts: ProbeOptions, io: CommandIo): CensusSources {
  return censusSources(resolveDataDir(opts.dataDir, io.env), {
    requirementsDir: resolve(
      opts.requirements === undefined
        ? BUILTIN_REQUIREMENTS_DIR
        : existingFolder("--requirements", opts.requirements),
    ),
    policiesDir: resolve(
      opts.policies === undefined ? BUILTIN_POLICIES_DIR : existingFolder("--policies", opts.policies),
    ),
  });
}

async function setupFor(sources: CensusSources, io: CommandIo): Promise<ProbeSetup> {
  const setup = await censusSetup(sources);
  for (const p of setup.requirements.problems)
    io.stderr.write(`tau-rescore: requirement fixture rejected: ${p.path}: ${p.message}\n`);
  for (const p of setup.clauses?.problems ?? [])
    io.stderr.write(`tau-rescore: policy clause file rejected: ${p.path}: ${p.message}\n`);
  return setup;
}

async function writeProbe(opts: ProbeOptions, io: CommandIo): Promise<void> {
  const { domain, kind, out } = opts;
  if (domain === undefined || kind === undefined || out === undefined)
    throw new UsageError("probe needs --domain, --kind and --out (or --census)");
  if (opts.json === true || opts.db !== undefined) throw new UsageError("--json and --db go with --census");
  if (!Object.hasOwn(DOMAINS, domain))
    throw new UsageError(`unknown domain ${domain} (${Object.keys(DOMAINS).join(", ")})`);
  if (!isProbeKind(kind)) throw new UsageError(`unknown probe kind ${kind} (${PROBE_KINDS.join(", ")})`);
  outputFileArg("--out", out);
  const setup = await setupFor(sourcesOf(opts, io), io);
  const sets = listTaskSets(setup.dataDir, domain);
  const set = opts.taskVersion === undefined ? sets[0] : sets.find((s) => s.name === opts.taskVersion);
  if (set === undefined) {
    const names = sets.map((s) => s.name).join(", ") || "none";
    throw new UsageError(`no task set ${opts.taskVersion ?? ""} for ${domain} (available: ${names})`);
  }
  const file = probeFileFor(setup, set, kind);
  writeFileSync(out, file.text);
  io.stderr.write(
    `probe ${kind} → ${out}: ${file.notes.size} simulation(s) for ${domain} ${set.name}` +
      (file.skipped.length > 0 ? `, ${file.skipped.length} task(s) skipped (see "probe.skipped")` : "") +
      "\n",
  );
}

async function census(opts: ProbeOptions, io: CommandIo): Promise<void> {
  if (opts.domain !== undefined || opts.kind !== undefined || opts.out !== undefined)
    throw new UsageError("--census probes every domain and kind: drop --domain, --kind and --out");
  const workers = runTuning(io.env).workers ?? availableParallelism();
  if (opts.db !== undefined) outputFileArg("--db", opts.db);
  const memoryLimit = memoryLimitOf(opts.memoryLimit);
  const sources = sourcesOf(opts, io);
  const setup = await setupFor(sources, io);
  // The table is written at the end, in one transaction: an interrupt leaves --db as it was.
  const removeHandlers = onInterrupt(
    () => {},
    () => (opts.db === undefined ? "the census was not finished" : `${opts.db} was left as it was`),
    io,
  );
  try {
    const started = performance.now();
    let probes = 0;
    const census = `${process.pid}-${started}`;
    io.stderr.write(`census: ${workers} thread(s)\n`);
    const rows = await runCensus(
      setup,
      workers <= 1
        ? {}
        : {
            gradeChunks: (chunks) =>
              censusInWorkers(
                chunks.map((chunk) => ({ census, sources, chunk })),
                workers,
              ),
          },
    );
    // Every grader's row counts the same probes: once per task set and kind.
    for (const [, tasks] of new Map(
      rows.map((r) => [`${r.domain}\u0000${r.task_version}\u0000${r.kind}`, r.tasks]),
    ))
      probes += tasks;
    const seconds = (performance.now() - started) / 1000;
    io.stderr.write(
      `census: ${probes} probe simulations in ${seconds.toFixed(1)} s (${Math.round(probes / seconds)}/s)\n`,
    );
    io.stdout.write(opts.json === true ? `${JSON.stringify(rows, null, 2)}\n` : formatCensus(rows));
    if (opts.db !== undefined) {
      await writeCensusTable(opts.db, rows, memoryLimit);
      io.stderr.write(`census: ${rows.length} rows → ${opts.db} (table probe_census)\n`);
    }
  } finally {
    removeHandlers();
  }
}
