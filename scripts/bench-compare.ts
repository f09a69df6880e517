/**
 * `npm run bench -- --compare REF [--rounds N] [--repeat R] [--replicate N] [--workers W] [--json]`: this checkout's bench against
 * REF's, in ABBA rounds (REF, this, this, REF), and each row's change with a 95% interval (see
 * `abba.ts`). Each tree runs its own `scripts/bench.ts --json`, so a REF from before a bench change
 * still runs; REF is checked out in a temporary git worktree that uses this checkout's node_modules.
 * Run nothing else meanwhile: every row is a wall time.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { type AbbaRatio, type AbbaRound, abbaRatio } from "./abba.ts";
import { runInChild } from "./script-args.ts";

type BenchResult = Record<string, unknown>;

/** The rows compared: the bench's JSON keys, the headline first. Lower is better for each. */
const ROWS: readonly (readonly [string, string])[] = [
  ["ratio_to_parse_floor", "both graders, all threads (× parse floor)"],
  ["one_thread_ratio_to_parse_floor", "both graders, 1 thread (× parse floor)"],
  ["tau3_ratio_to_parse_floor", "τ³ alone (× parse floor)"],
  ["load_ratio_to_parse_floor", "loading alone (× parse floor)"],
  ["both_s", "both graders, all threads (s)"],
  ["both_one_thread_s", "both graders, 1 thread (s)"],
  ["parse_floor_s", "parse floor (s)"],
  ["analysis_s", "analysis query set (s)"],
  ["peak_rss_mb", "peak RSS (MB)"],
];

function git(cwd: string, args: readonly string[]): string {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.trim() || `exit ${r.status}`}`);
  return r.stdout.trim();
}

/** One tree's `bench --json` (its own script, run from its own checkout). */
const benchIn = (tree: string, argv: readonly string[]): BenchResult =>
  runInChild<BenchResult>(
    pathToFileURL(join(tree, "scripts", "bench.ts")).href,
    ["--json", ...argv],
    `bench in ${tree}`,
    tree,
  );

export interface CompareOptions {
  readonly ref: string;
  readonly rounds: number;
  readonly repeat: number;
  readonly replicate: string;
  /** Passed on to both benches (undefined: each bench's default, every core). */
  readonly workers?: string;
  readonly corpus: string;
  readonly dataDir: string;
  readonly json: boolean;
}

interface RowResult extends AbbaRatio {
  readonly key: string;
  readonly label: string;
  readonly base: readonly number[];
  readonly head: readonly number[];
}

export function benchCompare(o: CompareOptions): void {
  const root = git(process.cwd(), ["rev-parse", "--show-toplevel"]);
  const sha = git(root, ["rev-parse", "--verify", `${o.ref}^{commit}`]);
  const head = `${git(root, ["rev-parse", "--short", "HEAD"])}${git(root, ["status", "--porcelain"]) === "" ? "" : "+changes"}`;
  const lock = (text: string) => text.replace(/\s+/g, "");
  const refLock = spawnSync("git", ["show", `${sha}:package-lock.json`], { cwd: root, encoding: "utf8" });
  if (
    refLock.status !== 0 ||
    lock(refLock.stdout) !== lock(readFileSync(join(root, "package-lock.json"), "utf8"))
  )
    process.stderr.write(
      `note: ${o.ref}'s package-lock.json differs from this checkout's; it runs on this node_modules\n`,
    );
  const dir = mkdtempSync(join(tmpdir(), "tau-rescore-compare-"));
  const tree = join(dir, "ref");
  let added = false;
  const started = performance.now();
  try {
    git(root, ["worktree", "add", "--detach", "--quiet", tree, sha]);
    added = true;
    symlinkSync(join(root, "node_modules"), join(tree, "node_modules"), "dir");
    // Absolute paths: the defaults resolve against each tree's own location.
    const argv = [
      "--repeat",
      String(o.repeat),
      "--corpus",
      resolve(o.corpus),
      "--data-dir",
      resolve(o.dataDir),
      "--replicate",
      o.replicate,
      ...(o.workers === undefined ? [] : ["--workers", o.workers]),
    ];
    const runs: { base: BenchResult[]; head: BenchResult[] }[] = [];
    for (let i = 0; i < o.rounds; i++) {
      const round = { base: [] as BenchResult[], head: [] as BenchResult[] };
      for (const [side, at] of [
        ["base", tree],
        ["head", root],
        ["head", root],
        ["base", tree],
      ] as const) {
        const elapsed = ((performance.now() - started) / 60_000).toFixed(1);
        process.stderr.write(
          `round ${i + 1}/${o.rounds}: ${side === "base" ? o.ref : head} (${elapsed} min)\n`,
        );
        round[side].push(benchIn(at, argv));
      }
      runs.push(round);
    }
    report(o, head, rowsOf(runs));
  } finally {
    if (added) git(root, ["worktree", "remove", "--force", tree]);
    rmSync(dir, { recursive: true, force: true });
  }
}

function rowsOf(runs: readonly { base: BenchResult[]; head: BenchResult[] }[]): RowResult[] {
  const out: RowResult[] = [];
  for (const [key, label] of ROWS) {
    const num = (r: BenchResult) => r[key];
    const all = runs.flatMap((r) => [...r.base, ...r.head]);
    if (!all.every((r) => typeof num(r) === "number" && (num(r) as number) > 0)) continue;
    const pair = (xs: BenchResult[]) =>
      [num(xs[0] as BenchResult), num(xs[1] as BenchResult)] as [number, number];
    const rounds: AbbaRound[] = runs.map((r) => ({ base: pair(r.base), head: pair(r.head) }));
    out.push({
      key,
      label,
      base: rounds.flatMap((r) => r.base),
      head: rounds.flatMap((r) => r.head),
      ...abbaRatio(rounds),
    });
  }
  return out;
}

function report(o: CompareOptions, head: string, rows: readonly RowResult[]): void {
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ base: o.ref, head, rounds: o.rounds, repeat: o.repeat, rows })}\n`,
    );
    return;
  }
  const pct = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)}%`;
  const digits = (key: string) => (key === "peak_rss_mb" ? 0 : 2);
  const range = (r: RowResult, xs: readonly number[]) =>
    `${Math.min(...xs).toFixed(digits(r.key))}–${Math.max(...xs).toFixed(digits(r.key))}`;
  const cells = rows.map((r) => [
    r.label,
    range(r, r.base),
    range(r, r.head),
    Number.isNaN(r.low)
      ? `${pct(r.change)}  ${r.verdict}`
      : `${pct(r.change)} [${pct(r.low)}, ${pct(r.high)}]  ${r.verdict}`,
  ]);
  const header = ["row", o.ref, head, "change [95% interval]"];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)) + 2);
  const line = (c: readonly string[]) =>
    `  ${c.map((x, i) => (i < 3 ? x.padEnd(widths[i] as number) : x)).join("")}`;
  const lines = [
    `${head} against ${o.ref}: ${o.rounds} ABBA round(s) of \`npm run bench -- --repeat ${o.repeat} --json\``,
    line(header),
    ...cells.map(line),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
}
