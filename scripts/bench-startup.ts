/**
 * Start-up of the real binary: `node -e 0`, `--help`, `grade` of one small file and `policies list`,
 * each the median of N spawns, as ratios to `node -e 0` measured in the same rounds (absolute times
 * move with the machine's load; the ratios much less).
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

const BIN = resolve("bin/tau-rescore.js");

export interface StartupRow {
  readonly label: string;
  readonly ms: number;
  /** Median time over the median of `node -e 0`. */
  readonly ratio: number;
  /** The most the ratio may be; null for the baseline. */
  readonly target: number | null;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

function spawnMs(args: readonly string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr.trim()}`);
  return ms;
}

/** `rounds` rounds, each spawning every command once in turn, so load changes hit them alike. */
export function startupRows(opts: { smallFile: string; dataDir: string; rounds: number }): StartupRow[] {
  const env = { ...process.env, TAU2_DATA_DIR: opts.dataDir };
  const commands: { label: string; args: string[]; target: number | null }[] = [
    { label: "node -e 0", args: ["-e", "0"], target: null },
    { label: "tau-rescore --help", args: [BIN, "--help"], target: 2 },
    { label: "tau-rescore grade <one small file>", args: [BIN, "grade", opts.smallFile], target: 3.5 },
    { label: "tau-rescore policies list", args: [BIN, "policies", "list"], target: 3 },
  ];
  for (const c of commands) spawnMs(c.args, env); // warm the file cache; not counted
  const times = commands.map(() => [] as number[]);
  for (let i = 0; i < opts.rounds; i++)
    for (const [k, c] of commands.entries()) times[k]?.push(spawnMs(c.args, env));
  const base = median(times[0] ?? []);
  return commands.map((c, k) => {
    const ms = median(times[k] ?? []);
    return { label: c.label, ms, ratio: ms / base, target: c.target };
  });
}

export function formatStartup(rows: readonly StartupRow[], rounds: number): string {
  const lines = [`start-up of bin/tau-rescore.js, median of ${rounds} spawns (ratio to node -e 0, target)`];
  for (const r of rows) {
    const ratio = `${r.ratio.toFixed(2)}×`.padStart(7);
    const target =
      r.target === null ? "" : `   target ≤ ${r.target}×${r.ratio <= r.target ? "" : "   OVER TARGET"}`;
    lines.push(`  ${r.label.padEnd(44)}${(r.ms / 1000).toFixed(3)} s${ratio}${target}`);
  }
  return `${lines.join("\n")}\n`;
}
