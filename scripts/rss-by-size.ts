/**
 * `npx tsx scripts/rss-by-size.ts [--corpus DIR] [--data-dir DIR] [--replicate 5,10,20,40] [--workers W]`
 *
 * Does memory grow with the corpus? Grades the corpus replicated k times, for each k in its own
 * process (peak RSS is per process), on W threads (default: every core), and prints each run's
 * simulations, wall time and peak RSS. Grading only: no DuckDB, whose buffers `npm run bench` counts.
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";

import { closeWorkers } from "../src/pipeline/parallel.ts";
import { gradeJobs, jobsFor } from "../src/pipeline/run.ts";
import { planRun } from "../src/pipeline/settings.ts";
import { corpusOptions, defaultExperiment, runInChild } from "./script-args.ts";

const { values: args } = parseArgs({
  options: {
    ...corpusOptions,
    replicate: { type: "string", default: "5,10,20,40" },
    workers: { type: "string" },
    // Internal: one measurement, in a child process.
    one: { type: "string" },
  },
});
const workers = Math.max(1, Number(args.workers ?? availableParallelism()));

interface Measure {
  readonly replicate: number;
  readonly simulations: number;
  readonly seconds: number;
  readonly peakRssMb: number;
}

async function measure(replicate: number): Promise<Measure> {
  const plan = await planRun(defaultExperiment(args));
  const jobs = Array.from({ length: replicate }, () => jobsFor(plan.exp)).flat();
  const started = performance.now();
  let simulations = 0;
  for await (const r of gradeJobs(plan, jobs, new Set(), workers))
    if (r.kind !== "skipped") simulations += r.simulations;
  const seconds = (performance.now() - started) / 1000;
  await closeWorkers();
  return { replicate, simulations, seconds, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

if (args.one !== undefined) {
  process.stdout.write(`${JSON.stringify(await measure(Number(args.one)))}\n`);
} else {
  const sizes = args.replicate.split(",").map((s) => Math.max(1, Number(s)));
  process.stdout.write(`corpus ${args.corpus}, ${workers} thread(s), grading only, one process per size\n`);
  for (const k of sizes) {
    const childArgs = [...process.argv.slice(2), "--one", String(k)];
    const m = runInChild<Measure>(import.meta.url, childArgs, `×${k}`);
    process.stdout.write(
      `  ×${String(m.replicate).padEnd(4)} ${String(m.simulations).padStart(7)} simulations  ${m.seconds.toFixed(1).padStart(6)} s  peak RSS ${Math.round(m.peakRssMb)} MB\n`,
    );
  }
}
