/**
 * `npx tsx scripts/kill-upgrade.ts [--tries 20] [--from 0.1] [--to 1.5] [--cli bin/tau-rescore.js]`
 *
 * Does a store survive `kill -9` during its in-place upgrade? Grades a small experiment once and
 * downgrades the store to schema 4. Each try copies it, starts `run` on the copy (which upgrades it
 * first), kills it with SIGKILL after a delay spread evenly over [from, to] seconds, and then checks that
 * `run` and `report` both accept the store (exit 0). Prints one line per try and a summary; exits 1 if
 * any store was refused.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DuckDBInstance } from "@duckdb/node-api";
import { corpusOptions } from "./script-args.ts";

const { values: args } = parseArgs({
  options: {
    ...corpusOptions,
    tries: { type: "string", default: "20" },
    from: { type: "string", default: "0.1" },
    to: { type: "string", default: "1.5" },
    cli: { type: "string", default: "bin/tau-rescore.js" },
  },
});
const tries = Number(args.tries);
const [from, to] = [Number(args.from), Number(args.to)];
const cli = resolve(args.cli);

/** Two files of about 35 simulations each: the whole run takes about a second, the upgrade a fraction. */
const CORPUS_FILES = [
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json",
  "sierra-tau2-bench__pr448-whissle/airline_run1.json",
];
/** What schemas 5 to 7 added: dropping them (and the version) gives the store a schema-4 layout. */
const ADDED_AFTER_SCHEMA_4 = [
  "comparisons",
  "task_exclusions",
  "sample_reviews",
  "submissions",
  "submission_results",
  "submission_files",
];

const tmp = mkdtempSync(join(tmpdir(), "kill-upgrade-"));
const experiment = join(tmp, "experiment.json");
writeFileSync(
  experiment,
  JSON.stringify({
    name: "kill-upgrade",
    roots: {
      corpus: resolve(args.corpus),
      data: resolve(args["data-dir"]),
      output: join(tmp, "out"),
      repo: resolve("."),
    },
    corpus: CORPUS_FILES,
    output: "kill-upgrade.duckdb",
    ranking: { min_task_coverage: 0.5, bootstrap_samples: 50, seed: 1 },
  }),
);
const env = { ...process.env, TAU2_DATA_DIR: resolve(args["data-dir"]) };
const runArgs = (db: string) => ["run", experiment, "--db", db];
const reportArgs = (db: string, out: string) => ["report", "--db", db, "--out", out];

function cliSync(argv: readonly string[]): { status: number | null; lastLine: string } {
  const r = spawnSync(process.execPath, [cli, ...argv], { encoding: "utf8", env });
  return { status: r.status, lastLine: r.stderr.trim().split("\n").at(-1) ?? "" };
}

async function withDb<T>(
  path: string,
  work: (sql: (q: string, p?: string[]) => Promise<unknown[][]>) => Promise<T>,
) {
  const db = await DuckDBInstance.create(path);
  const conn = await db.connect();
  try {
    return await work(async (q, p = []) => (await conn.runAndReadAll(q, p)).getRows());
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** The schema version a killed process left (read from a copy: opening replays the write-ahead log). */
async function schemaLeft(store: string): Promise<string> {
  const probe = join(tmp, "probe.duckdb");
  rmSync(probe, { force: true });
  rmSync(`${probe}.wal`, { force: true });
  copyFileSync(store, probe);
  if (existsSync(`${store}.wal`)) copyFileSync(`${store}.wal`, `${probe}.wal`);
  return withDb(probe, async (sql) => {
    const version = String((await sql("SELECT value FROM store_meta WHERE key = 'schema_version'"))[0]?.[0]);
    if (version !== "4") return version;
    // Schema 5's work committed under version 4: the state an upgrade must be able to finish.
    const hasComparisons = await sql(
      "SELECT 1 FROM information_schema.tables WHERE table_schema = 'main' AND table_name = 'comparisons'",
    );
    return hasComparisons.length > 0 ? "4 with schema 5's comparisons" : version;
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((done) => child.on("exit", (code, signal) => done({ code, signal })));
}

const schema4 = join(tmp, "schema4.duckdb");
const graded = cliSync(runArgs(schema4));
if (graded.status !== 0) {
  process.stderr.write(`kill-upgrade: the first run failed (exit ${graded.status}): ${graded.lastLine}\n`);
  process.exit(2);
}
await withDb(schema4, async (sql) => {
  for (const table of ADDED_AFTER_SCHEMA_4) await sql(`DROP TABLE IF EXISTS ${table}`);
  await sql("UPDATE store_meta SET value = $1 WHERE key = 'schema_version'", ["4"]);
});

let accepted = 0;
const leftAt = new Map<string, number>();
for (let i = 0; i < tries; i++) {
  const delay = tries === 1 ? from : from + ((to - from) * i) / (tries - 1);
  const dir = join(tmp, `try-${i + 1}`);
  mkdirSync(dir);
  const store = join(dir, "store.duckdb");
  copyFileSync(schema4, store);
  const child = spawn(process.execPath, [cli, ...runArgs(store)], { stdio: "ignore", env });
  const exited = exitOf(child);
  const timer = setTimeout(() => child.kill("SIGKILL"), delay * 1000);
  const { code, signal } = await exited;
  clearTimeout(timer);
  const left = await schemaLeft(store);
  leftAt.set(left, (leftAt.get(left) ?? 0) + 1);
  const run = cliSync(runArgs(store));
  const report = run.status === 0 ? cliSync(reportArgs(store, join(dir, "report"))) : null;
  const ok = run.status === 0 && report?.status === 0;
  if (ok) accepted++;
  const how = signal === "SIGKILL" ? "killed" : `finished first (exit ${code})`;
  const refusal = ok ? "" : `: ${(report ?? run).lastLine}`;
  console.log(
    `try ${i + 1}: ${delay.toFixed(2)} s, ${how}, store left at schema ${left}; run exit ${run.status}, ` +
      `report exit ${report?.status ?? "not run"}${refusal}`,
  );
  rmSync(dir, { recursive: true, force: true });
}
rmSync(tmp, { recursive: true, force: true });

const spread = [...leftAt].map(([v, n]) => `${n} at schema ${v}`).join(", ");
console.log(`kill-upgrade: ${tries} tries, ${accepted} stores accepted by run and report (left ${spread})`);
process.exit(accepted === tries ? 0 : 1);
