/**
 * `npx tsx scripts/passes.ts [--graders tau3,structured] [--passes 14]`: warm single-thread grading passes
 * over the default corpus in this process, printing each pass and the minimum of the last ten. For CPU
 * profiles (`node --cpu-prof --import tsx scripts/passes.ts`) and before/after comparisons of one grader's
 * cost, where the bench's threads and DuckDB would blur it.
 */
import { parseArgs } from "node:util";
import { gradeJobs, jobsFor } from "../src/pipeline/run.ts";
import { planRun } from "../src/pipeline/settings.ts";
import { corpusOptions, defaultExperiment } from "./script-args.ts";

const { values: args } = parseArgs({
  options: {
    ...corpusOptions,
    graders: { type: "string", default: "tau3,structured" },
    passes: { type: "string", default: "14" },
  },
});
const graders = (args.graders ?? "").split(",") as ("tau3" | "structured")[];
const base = defaultExperiment(args);
const plan = await planRun({
  ...base,
  config: {
    ...base.config,
    graders,
    corrections: graders.includes("structured") && base.config.corrections,
    comparisons: graders.includes("structured") ? base.config.comparisons : undefined,
  },
});
const jobs = jobsFor(plan.exp);
const times: number[] = [];
// CPU time of this process per pass: steadier than wall time on a machine shared with other work.
const cpu: number[] = [];
for (let i = 0; i < Number(args.passes); i++) {
  const t = performance.now();
  const c = process.cpuUsage();
  let sims = 0;
  for await (const r of gradeJobs(plan, jobs, new Set(), 1)) if (r.kind !== "skipped") sims += r.simulations;
  times.push(performance.now() - t);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
  if (i === 0) process.stderr.write(`${sims} simulations per pass\n`);
}
const tail = times.slice(-10);
const cpuTail = cpu.slice(-10);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

console.log(`passes ms: ${times.map((t) => t.toFixed(0)).join(" ")}`);
console.log(
  `wall, last ${tail.length}: min ${Math.min(...tail).toFixed(0)} ms, median ${med(tail).toFixed(0)} ms`,
);
console.log(
  `cpu, last ${cpuTail.length}: min ${Math.min(...cpuTail).toFixed(0)} ms, median ${med(cpuTail).toFixed(0)} ms`,
);
