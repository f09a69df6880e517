/**
 * `npx tsx scripts/inspect-scale.ts [N] [--max-seconds S] [--corpus DIR] [--data-dir DIR] [--keep]`
 *
 * Does `corpus inspect` stay linear in the number of files? Writes N one-simulation files (default
 * 100,000) into one temporary folder, times `./bin/tau-rescore.js corpus inspect DIR` on them and prints
 * `inspect-scale: N files in X s`; exits 1 when that takes more than S seconds (default 30) or the
 * listing does not count every file. Each file is the smallest simulation of the shared airline run
 * `sierra-tau2-bench__pr448-whissle/airline_run1.json` (about 13 KB) under its own id, so the folder is
 * one per-simulation run, as tau2 saves simulations one by one.
 */
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { corpusOptions } from "./script-args.ts";

const { values: args, positionals } = parseArgs({
  options: {
    ...corpusOptions,
    "max-seconds": { type: "string", default: "30" },
    keep: { type: "boolean", default: false },
  },
  allowPositionals: true,
});
const files = Number(positionals[0] ?? 100_000);
const maxSeconds = Number(args["max-seconds"]);
if (!Number.isInteger(files) || files < 2 || !(maxSeconds > 0)) {
  process.stderr.write("usage: inspect-scale.ts [N ≥ 2] [--max-seconds S > 0]\n");
  process.exit(2);
}

const source = join(args.corpus, "sierra-tau2-bench__pr448-whissle/airline_run1.json");
const simulations: { id: string }[] = JSON.parse(readFileSync(source, "utf8")).simulations;
const smallest = simulations
  .map((s) => ({ s, size: JSON.stringify(s).length }))
  .reduce((a, b) => (b.size < a.size ? b : a)).s;

// bin/ runs dist/: build it when a source is newer.
const build = spawnSync("bash", ["scripts/ensure-build.sh"], { stdio: "inherit" });
if (build.status !== 0) process.exit(build.status ?? 1);

const dir = mkdtempSync(join(tmpdir(), "inspect-scale-"));
const run = join(dir, "run");
mkdirSync(run);
// The text is built once; only the id differs from file to file.
const [head, tail] = JSON.stringify({ ...smallest, id: "\u0000" }).split('"\\u0000"') as [string, string];
const width = String(files - 1).length;
for (let i = 0; i < files; i++) {
  const n = String(i).padStart(width, "0");
  writeFileSync(join(run, `sim_${n}.json`), `${head}${JSON.stringify(`${smallest.id}-${n}`)}${tail}`);
}

const listing = join(dir, "inspect.txt");
const out = openSync(listing, "w");
const started = performance.now();
const inspect = spawnSync(
  process.execPath,
  [resolve("bin/tau-rescore.js"), "corpus", "inspect", run, "--data-dir", args["data-dir"]],
  // Stopped at twice the limit: a quadratic listing of 100,000 files would run for many minutes.
  { stdio: ["ignore", out, "pipe"], encoding: "utf8", timeout: 2 * maxSeconds * 1000 },
);
const seconds = (performance.now() - started) / 1000;
closeSync(out);
const text = readFileSync(listing, "utf8");
if (args.keep) process.stderr.write(`inspect-scale: files kept in ${run}\n`);
else rmSync(dir, { recursive: true, force: true });

if (inspect.signal !== null) {
  process.stdout.write(`inspect-scale: ${files} files: stopped after ${seconds.toFixed(1)} s\n`);
  process.exit(1);
}
process.stdout.write(`inspect-scale: ${files} files in ${seconds.toFixed(1)} s\n`);
const totals = `${files} files, ${files} with trajectories, ${files} simulations, 0 failed`;
const runLine = `${run}: ${files} files (single-simulation), ${files} simulations`;
if (inspect.status !== 0 || !text.includes(totals) || !text.includes(runLine)) {
  process.stderr.write(
    `inspect-scale: corpus inspect exited ${inspect.status} without listing every file as one run\n${inspect.stderr}`,
  );
  process.exit(1);
}
if (seconds > maxSeconds) {
  process.stderr.write(`inspect-scale: over the ${maxSeconds} s limit\n`);
  process.exit(1);
}
