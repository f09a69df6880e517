/**
 * `npm run bench -- --main-job [--repeat R]`: the README's main job, phase by phase, as the commands a
 * user runs (each its own process, from an empty output folder), next to the parse floor measured in
 * the same run (read + JSON.parse every corpus file). Install is excluded: dist/ is brought up to date
 * (scripts/ensure-build.sh) before the first timing. Reports the median of R repeats per phase and as
 * ratios to the parse floor.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { listInputFiles } from "../src/pipeline/inputs.ts";

export interface MainJobOptions {
  readonly corpus: string;
  readonly dataDir: string;
  readonly repeat: number;
  readonly json: boolean;
}

const PHASES = ["corpus inspect", "run", "probe --census", "report --html"] as const;
type Phase = (typeof PHASES)[number];

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

function parseFloor(files: readonly string[]): number {
  const t = performance.now();
  for (const f of files) {
    try {
      JSON.parse(readFileSync(f, "utf8"));
    } catch {
      // JSONL and broken files cost their parse attempt too
    }
  }
  return (performance.now() - t) / 1000;
}

function command(phase: Phase, opts: MainJobOptions, out: string): string[] {
  const db = join(out, "default.duckdb");
  switch (phase) {
    case "corpus inspect":
      return ["corpus", "inspect", opts.corpus];
    case "run":
      return ["run", "experiments/default.json", "--corpus", opts.corpus, "--db", db];
    case "probe --census":
      return ["probe", "--census", "--db", db];
    case "report --html":
      return [
        "report",
        "--experiment",
        "experiments/default.json",
        "--db",
        db,
        "--out",
        join(out, "report"),
        "--html",
      ];
  }
}

/** Runs the CLI once; its output is discarded, a failure stops the bench. */
function cli(args: readonly string[], dataDir: string): number {
  const t = performance.now();
  const child = spawnSync(process.execPath, [resolve("bin/tau-rescore.js"), ...args], {
    env: { ...process.env, TAU2_DATA_DIR: dataDir },
    stdio: ["ignore", "ignore", "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (child.status !== 0)
    throw new Error(`tau-rescore ${args.join(" ")} failed (${child.status}): ${child.stderr}`);
  return (performance.now() - t) / 1000;
}

export function benchMainJob(opts: MainJobOptions): void {
  const files = listInputFiles([opts.corpus]);
  // Building dist/ after a source change is install, not the job.
  const built = spawnSync("bash", [resolve("scripts/ensure-build.sh")], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("building dist/ failed");
  cli(["--help"], opts.dataDir); // warms the file cache
  const floor: number[] = [];
  const times = Object.fromEntries(PHASES.map((p) => [p, [] as number[]])) as Record<Phase, number[]>;
  const totals: number[] = [];
  for (let i = 0; i < opts.repeat; i++) {
    floor.push(parseFloor(files));
    const out = mkdtempSync(join(tmpdir(), "tau-rescore-main-job-"));
    try {
      let total = 0;
      for (const p of PHASES) {
        const s = cli(command(p, opts, out), opts.dataDir);
        times[p].push(s);
        total += s;
      }
      totals.push(total);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  const f = median(floor);
  const rows = [...PHASES.map((p) => [p, median(times[p])] as const), ["total", median(totals)] as const];
  if (opts.json) {
    const phases = Object.fromEntries(rows.map(([p, s]) => [p, { seconds: s, ratio_to_parse_floor: s / f }]));
    process.stdout.write(
      `${JSON.stringify({ parse_floor_s: f, phases, repeats: opts.repeat, files: files.length })}\n`,
    );
    return;
  }
  const line = (label: string, s: number) =>
    `  ${label.padEnd(28)}${s.toFixed(3).padStart(7)} s ${`${(s / f).toFixed(1)}×`.padStart(7)}`;
  process.stdout.write(
    [
      `main job over ${opts.corpus}: ${files.length} files, median of ${opts.repeat}, each phase its own process`,
      line("parse floor", f),
      ...rows.map(([p, s]) => line(p, s)),
      `  each total in order: ${totals.map((t) => t.toFixed(2)).join(" ")} s`,
    ].join("\n") + "\n",
  );
}
