/**
 * `npm run bench -- [--corpus DIR] [--replicate N] [--repeat R] [--workers W] [--json] [--main-job]`
 * `npm run bench -- --compare REF [--rounds N] [--repeat R] [--json]` (this checkout against REF, see `bench-compare.ts`)
 * `npm run bench -- --startup [--spawns N]`: start-up of the binary only (see `bench-startup.ts`; the
 * full bench prints the same rows after its own)
 *
 * Measures the parse floor (read + JSON.parse every file), our loading alone (read, file hash, typed
 * parse, schema), τ³ grading alone and both graders end to end on W threads (default: every core),
 * the DuckDB ingest, and the full analysis query set, in one process; both graders on one thread run
 * in a child process, so each mode reports its own peak RSS. Reports medians over R repeats and the
 * ratios to the parse floor (absolute times are noisy on shared machines). Repeats run in a warm
 * process, so every repeat of both graders is listed too (the first is cold; threads warm up over several).
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { installAnalyses } from "../src/analysis/run.ts";
import { summarize } from "../src/analysis/summary.ts";
import { REPORTED } from "../src/analysis/views.ts";
import { loadJsonFile } from "../src/formats/load.ts";
import { stableJson } from "../src/formats/stable-json.ts";
import { closeWorkers } from "../src/pipeline/parallel.ts";
import type { FileResult } from "../src/pipeline/process-file.ts";
import { gradeJobs, jobsFor } from "../src/pipeline/run.ts";
import { planRun, type RunPlan } from "../src/pipeline/settings.ts";
import { type PackedBatch, type PackedRow, type RowOf, TABLES, type TableName } from "../src/store/schema.ts";
import { VerdictStore } from "../src/store/store.ts";
import { benchResult, medians, type PhaseRuns } from "./bench-stats.ts";
import { corpusOptions, defaultExperiment, runInChild } from "./script-args.ts";

const { values: args } = parseArgs({
  options: {
    ...corpusOptions,
    replicate: { type: "string", default: "1" },
    repeat: { type: "string", default: "3" },
    workers: { type: "string" },
    json: { type: "boolean", default: false },
    // The README's main job, phase by phase (see `bench-main-job.ts`).
    "main-job": { type: "boolean", default: false },
    // This checkout against a git ref, in ABBA rounds (see `bench-compare.ts`).
    compare: { type: "string" },
    rounds: { type: "string", default: "3" },
    // Start-up of bin/tau-rescore.js against `node -e 0` (see `bench-startup.ts`).
    startup: { type: "boolean", default: false },
    spawns: { type: "string", default: "11" },
    // Internal: the single-thread baselines run in their own process (see `baselinesInChild`).
    baselines: { type: "boolean", default: false },
  },
});
const replicate = Math.max(1, Number(args.replicate));
const repeat = Math.max(1, Number(args.repeat));
const threads = Math.max(1, Number(args.workers ?? availableParallelism()));

if (args.compare !== undefined) {
  const { benchCompare } = await import("./bench-compare.ts");
  try {
    benchCompare({
      ref: args.compare,
      rounds: Math.max(1, Number(args.rounds)),
      repeat,
      replicate: String(replicate),
      workers: args.workers,
      corpus: args.corpus,
      dataDir: args["data-dir"],
      json: args.json,
    });
  } catch (e) {
    process.stderr.write(`bench --compare: ${(e as Error).message}\n`);
    process.exit(2);
  }
  process.exit(0);
}

/** One small trajectory file of the corpus (the first it ships, mock domain) for the `grade` start-up row. */
const startupRowsText = async (rounds: number): Promise<string> => {
  const { formatStartup, startupRows } = await import("./bench-startup.ts");
  const smallFile = join(args.corpus, "sierra-tau2-bench__pr170-tau2-trace", "e2e_mock_baseline.json");
  return formatStartup(startupRows({ smallFile, dataDir: args["data-dir"], rounds }), rounds);
};

if (args.startup) {
  process.stdout.write(await startupRowsText(Math.max(1, Number(args.spawns))));
  process.exit(0);
}

if (args["main-job"]) {
  const { benchMainJob } = await import("./bench-main-job.ts");
  benchMainJob({ corpus: args.corpus, dataDir: args["data-dir"], repeat, json: args.json });
  process.exit(0);
}

/** The sides a comparison of the "both graders" run may name. */
const BOTH_SIDES: readonly string[] = [
  "recorded",
  "tau3",
  "tau3_corrected",
  "structured",
  "structured_strict",
];

const experiment = (graders: ("tau3" | "structured")[]): Promise<RunPlan> => {
  const base = defaultExperiment(args);
  return planRun({
    ...base,
    config: {
      ...base.config,
      graders,
      corrections: graders.includes("structured") && base.config.corrections,
      // τ³ alone compares what it declares (the recorded rewards); both keep the experiment's comparisons
      // between the graders they run (the structured grader brings its strict gate).
      comparisons: graders.includes("structured")
        ? base.config.comparisons?.filter((c) =>
            [c.baseline, c.candidate].every((g) => BOTH_SIDES.includes(g)),
          )
        : undefined,
    },
  });
};

const seconds = async (f: () => Promise<unknown> | unknown) => {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
};

const exp = await experiment(["tau3", "structured"]);
const tau3Only = await experiment(["tau3"]);
const baseJobs = jobsFor(exp.exp);
const jobs = Array.from({ length: replicate }, () => baseJobs).flat();

function parseFloor(): void {
  for (const j of jobs) {
    try {
      JSON.parse(readFileSync(j.full, "utf8"));
    } catch {
      // JSONL and broken files cost their parse attempt too
    }
  }
}

/** What grading must do before it grades: read, hash (the file id), typed parse, schema checks. */
function loadOnly(): void {
  for (const j of jobs) {
    const bytes = readFileSync(j.full);
    createHash("sha256").update(bytes).digest("hex");
    try {
      loadJsonFile(j.full, bytes);
    } catch {
      // unreadable files cost their attempt too
    }
  }
}

async function grade(
  e: RunPlan,
  workers: number,
  sink?: (r: FileResult, replica: number) => Promise<void>,
): Promise<number> {
  let sims = 0;
  const seen = new Map<string, number>();
  for await (const r of gradeJobs(e, jobs, new Set(), workers)) {
    const replica = seen.get(r.path) ?? 0;
    seen.set(r.path, replica + 1);
    if (r.kind !== "skipped") sims += r.simulations;
    if (sink !== undefined) await sink(r, replica);
  }
  return sims;
}

/** Replicated files would collide on their content keys: suffix file ids and simulation keys. */
function rekey(table: TableName, rows: readonly PackedRow[], replica: number): PackedRow[] {
  if (replica === 0) return [...rows];
  const cols = TABLES[table].columns.map((c) => c.name as string);
  const targets = ["file_id", "sim_key"].map((n) => cols.indexOf(n)).filter((i) => i >= 0);
  return rows.map((row) =>
    row.map((v, i) => (targets.includes(i) && typeof v === "string" ? `${v}~${replica}` : v)),
  );
}

async function ingest(db: string): Promise<{ writeS: number; totalS: number }> {
  rmSync(db, { force: true });
  const store = await VerdictStore.open(db);
  const c = exp.exp.config;
  await store.append("runs", [
    {
      run_id: exp.runId,
      seq: 1,
      experiment: c.name,
      config_hash: exp.exp.configHash,
      tool_version: "bench",
      config_json: "{}",
      grading_spec: stableJson(exp.grading.spec),
      infrastructure_errors: c.infrastructure_errors,
      min_task_coverage: c.ranking.min_task_coverage,
      bootstrap_samples: c.ranking.bootstrap_samples,
      seed: c.ranking.seed,
      completed: true,
    },
  ]);
  let writeS = 0;
  const pending: { fileRow: RowOf<"files">; batch: PackedBatch }[] = [];
  const flush = async () => {
    writeS += await seconds(() => store.writeFiles(pending));
    pending.length = 0;
  };
  const totalS = await seconds(() =>
    grade(exp, threads, async (r, replica) => {
      if (r.kind === "skipped") return;
      const batch: PackedBatch = {};
      for (const t of Object.keys(r.batch) as TableName[]) batch[t] = rekey(t, r.batch[t] ?? [], replica);
      const fileRow =
        replica === 0 ? r.fileRow : { ...r.fileRow, file_id: `${r.fileRow.file_id}~${replica}` };
      pending.push({ fileRow, batch });
      if (pending.length >= 16) await flush();
    }),
  );
  await flush();
  store.close();
  return { writeS, totalS };
}

async function analysis(db: string): Promise<{ seconds: number; verdictRows: number }> {
  const store = await VerdictStore.open(db);
  const verdictRows = Number(
    (await store.query<{ n: number }>("SELECT count(*)::INTEGER AS n FROM verdicts"))[0]?.n ?? 0,
  );
  const s = await seconds(async () => {
    await installAnalyses(store);
    for (const v of REPORTED) await store.query(`SELECT * FROM ${v}`);
    await summarize(store);
  });
  store.close();
  return { seconds: s, verdictRows };
}

/**
 * Loading alone and both graders on one thread run in a child process, so the main process holds
 * what a threaded run holds (threads, DuckDB) and its peak RSS is the tool's. The parse floor stays
 * here, interleaved with the threaded runs it is the denominator of.
 */
interface Baselines {
  readonly load: number[];
  readonly one: number[];
  readonly peakRssMb: number;
}

function baselinesInChild(): Baselines {
  const argv = [
    "--corpus",
    args.corpus,
    "--data-dir",
    args["data-dir"],
    "--replicate",
    String(replicate),
    "--repeat",
    String(repeat),
    "--baselines",
  ];
  return runInChild<Baselines>(import.meta.url, argv, "baseline process");
}

if (args.baselines) {
  const b = { load: [] as number[], one: [] as number[] };
  for (let i = 0; i < repeat; i++) {
    b.load.push(await seconds(loadOnly));
    b.one.push(await seconds(() => grade(exp, 1)));
  }
  process.stdout.write(`${JSON.stringify({ ...b, peakRssMb: process.resourceUsage().maxRSS / 1024 })}\n`);
  process.exit(0);
}

const runs: PhaseRuns = {
  parse: [],
  load: [],
  tau3: [],
  bothOne: [],
  both: [],
  write: [],
  run: [],
  analysis: [],
};
let simulations = 0;
let tau3Simulations = 0;
let verdictRows = 0;
const db = join(tmpdir(), `tau-rescore-bench-${process.pid}.duckdb`);
const baselines = baselinesInChild();
runs.load.push(...baselines.load);
runs.bothOne.push(...baselines.one);
for (let i = 0; i < repeat; i++) {
  runs.parse.push(await seconds(parseFloor));
  runs.tau3.push(await seconds(async () => (tau3Simulations = await grade(tau3Only, threads))));
  runs.both.push(await seconds(async () => (simulations = await grade(exp, threads))));
  const w = await ingest(db);
  runs.write.push(w.writeS);
  runs.run.push(w.totalS);
}
// Analyses run as their own command (`tau-rescore report`), never beside grading threads.
await closeWorkers();
for (let i = 0; i < repeat; i++) {
  const a = await analysis(db);
  runs.analysis.push(a.seconds);
  verdictRows = a.verdictRows;
}
if (!process.env.BENCH_KEEP_DB) rmSync(db, { force: true });
rmSync(`${db}.wal`, { force: true });

const m = medians(runs);
const bothOne = m.bothOne;
const result = benchResult(runs, {
  simulations,
  tau3Simulations,
  verdictRows,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  baselinePeakRssMb: baselines.peakRssMb,
  threads,
  files: jobs.length,
  replicate,
  repeats: repeat,
});
if (args.json) {
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const f = (x: number) => x.toFixed(3);
  const row = (label: string, s: number, ...rest: string[]) =>
    [`  ${label.padEnd(44)}${f(s)} s`, `${(s / m.parse).toFixed(2)}×`.padStart(7), ...rest].join("   ");
  const rate = (x: number, n = simulations) => `${Math.round(n / x)} simulations/s`;
  const lines = [
    `corpus ${args.corpus} ×${replicate}: ${jobs.length} files, ${simulations} simulations, median of ${repeat} (warm process)`,
    row("parse floor (read + JSON.parse)", m.parse),
    row("loading (+ file hash, typed parse, schema)", m.load),
    row(`τ³ only, ${threads} thread(s)`, m.tau3, rate(m.tau3, tau3Simulations)),
  ];
  lines.push(row("both graders, 1 thread", bothOne, rate(bothOne)));
  lines.push(
    row(`both graders, ${threads} thread(s)`, m.both, rate(m.both)),
    `    each repeat in order (threads warm up over several): ${runs.both.map(f).join(" ")} s`,
    `  ${"DuckDB ingest (write time)".padEnd(44)}${f(m.write)} s   (grading + writing: ${f(m.run)} s)`,
    `  ${"analysis query set".padEnd(44)}${f(m.analysis)} s   over ${verdictRows} verdict rows`,
    `  ${"peak RSS (grading, ingest, analysis)".padEnd(44)}${Math.round(result.peak_rss_mb)} MB`,
    `  ${"peak RSS of the baselines' own process".padEnd(44)}${Math.round(baselines.peakRssMb)} MB   (loading, 1 thread)`,
  );
  process.stdout.write(`${lines.join("\n")}\n`);
  process.stdout.write(await startupRowsText(Math.max(1, Number(args.spawns))));
}
