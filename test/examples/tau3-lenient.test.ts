/**
 * The example grader outside src/ (`examples/graders/tau3-lenient.ts`), run the way a user would: an
 * experiment names its module, grades it beside τ³ (in-process and in grading threads), compares
 * τ³ → it, and the report finds the comparison's flips, rankings and charts with nothing in src/
 * knowing the grader.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Summary } from "../../src/analysis/summary.ts";
import { loadExperiment } from "../../src/experiments/config.ts";
import { GRADER_IDS, graderOf } from "../../src/graders/registry.ts";
import { runExperiment } from "../../src/pipeline/run.ts";
import { planRun } from "../../src/pipeline/settings.ts";
import { reviewEntrySchema } from "../../src/reviews/file.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeHtmlReport } from "../helpers/html-report.ts";
import { cli } from "../helpers/small-run.ts";

const MODULE = "examples/graders/tau3-lenient.ts";
const NAME = "lenient";
const quiet = { start() {}, tick() {}, stop() {} };

/** Four agents over the same ten airline tasks: a ranking group, and COMMUNICATE failures to forgive. */
function writeConfig(dir: string, output: string): string {
  const file = join(dir, `${output}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      name: "lenient",
      roots: { corpus: CORPUS_DIR, data: DATA_DIR, output: ".", repo: resolve(".") },
      corpus: ["jitrc-tau2-enhanced"],
      output: `${output}.duckdb`,
      graders: ["tau3", "tau3_lenient"],
      grader_modules: [MODULE],
      grader_config: { tau3_lenient: { ignore: ["COMMUNICATE"] } },
      comparisons: [
        { baseline: "recorded", candidate: "tau3" },
        { baseline: "tau3", candidate: "tau3_lenient", name: NAME },
      ],
      ranking: { min_task_coverage: 0.5, bootstrap_samples: 50, seed: 1 },
    }),
  );
  return file;
}

async function grade(file: string, workers: number): Promise<VerdictStore> {
  const plan = await planRun(loadExperiment(file));
  const store = await VerdictStore.open(plan.exp.output);
  await runExperiment(plan, store, quiet, { workers });
  return store;
}

const verdictRows = (store: VerdictStore) =>
  store.query<{ sim_key: string; grader: string; pass: boolean | null; reward: number | null }>(
    "SELECT sim_key, grader, pass, reward FROM verdicts ORDER BY sim_key, grader",
  );

let dir = "";
let out = "";
let store: VerdictStore;
let summary: Summary;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tr-example-"));
  store = await grade(writeConfig(dir, "inline"), 1);
  out = join(dir, "report");
  mkdirSync(out);
  ({ summary } = await writeHtmlReport(store, out));
}, 240_000);
afterAll(() => store?.close());

describe("a grader module named by the experiment", () => {
  it("is registered after the built-in graders, with its own configuration", async () => {
    expect(GRADER_IDS.at(-1)).toBe("tau3_lenient");
    const spec = await store.query<{ grading_spec: string }>("SELECT grading_spec FROM runs");
    expect(JSON.parse(spec[0]?.grading_spec ?? "{}").graders.tau3_lenient).toEqual({
      ignore: ["COMMUNICATE"],
    });
    expect(graderOf("tau3_lenient").version).toBe("tau3-lenient/1");
  });

  it("passes every simulation τ³ fails only on COMMUNICATE, and no other", async () => {
    const rows = await store.query<{ tau3: boolean; lenient: boolean; communicate_only: boolean }>(
      `SELECT t.pass AS tau3, l.pass AS lenient,
              NOT EXISTS (SELECT 1 FROM components c WHERE c.sim_key = t.sim_key AND c.grader = 'tau3'
                          AND c.in_basis AND c.score = 0 AND c.component <> 'COMMUNICATE')
              AND t.sim_key IN (SELECT sim_key FROM causes WHERE grader = 'tau3' AND kind = 'component') AS communicate_only
       FROM verdicts t JOIN verdicts l ON l.sim_key = t.sim_key AND l.grader = 'tau3_lenient'
       WHERE t.grader = 'tau3'`,
    );
    expect(rows).toHaveLength(80);
    const flipped = rows.filter((r) => r.tau3 !== r.lenient);
    expect(flipped.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.lenient).toBe(r.tau3 || r.communicate_only);
  });

  it("may be named by reviews, as every grader can", () => {
    const entry = {
      fingerprint: "0".repeat(64),
      simulation_id: null,
      path: null,
      grader: "tau3_lenient",
      kind: "component",
      reference: "DB",
      verdict: "confirmed",
      reason: "the DB differs",
    };
    expect(reviewEntrySchema.safeParse(entry).success).toBe(true);
    expect(reviewEntrySchema.safeParse({ ...entry, grader: "tau3_lenient2" }).success).toBe(false);
  });

  it("grades the same in grading threads", async () => {
    const threaded = await grade(writeConfig(dir, "threads"), 2);
    try {
      expect(await verdictRows(threaded)).toEqual(await verdictRows(store));
    } finally {
      threaded.close();
    }
  }, 240_000);
});

describe("the built CLI", () => {
  it("refuses a TypeScript module without a loader, in one line naming the module", () => {
    const r = cli(["run", writeConfig(dir, "no-loader")]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/grader module .*tau3-lenient\.ts: a TypeScript module needs a loader/);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("loads the TypeScript module with a loader, grading in one thread (threads load JavaScript only), and labels it in charts", async () => {
    const file = writeConfig(dir, "cli");
    const r = cli(["run", file], { TAU_RESCORE_WORKERS: "2", NODE_OPTIONS: "--import=tsx" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/grader module .*tau3-lenient\.ts is TypeScript: graded in one thread/);
    const built = await VerdictStore.open(join(dir, "cli.duckdb"));
    try {
      expect(await verdictRows(built)).toEqual(await verdictRows(store));
    } finally {
      built.close();
    }
    const charts = join(dir, "cli-report");
    const report = cli(["report", "--experiment", file, "--out", charts, "--charts"], {
      NODE_OPTIONS: "--import=tsx",
    });
    expect(report.status, report.stderr).toBe(0);
    const spec = readFileSync(join(charts, "charts", `flip_rates_by_model--${NAME}.vl.json`), "utf8");
    expect(spec).toContain("τ³, components ignored");
  }, 240_000);
});

describe("the comparison τ³ → the example grader", () => {
  it("finds its flips in the store views, each failing on τ³'s COMMUNICATE", async () => {
    const flips = await store.query<{ direction: string; failing_grader: string }>(
      `SELECT direction, failing_grader FROM flips WHERE comparison = '${NAME}'`,
    );
    expect(flips.length).toBeGreaterThan(0);
    expect(new Set(flips.map((f) => `${f.direction} ${f.failing_grader}`))).toEqual(
      new Set(["fail_to_pass tau3"]),
    );
    const causes = await store.query<{ reference: string }>(
      `SELECT DISTINCT reference FROM flip_causes WHERE comparison = '${NAME}'`,
    );
    expect(causes).toEqual([{ reference: "COMMUNICATE" }]);
  });

  it("is in summary.json with its flips and the rankings under both sides", () => {
    const written = JSON.parse(readFileSync(join(out, "summary.json"), "utf8")) as Summary;
    const c = written.comparisons[NAME];
    expect(c).toBeDefined();
    expect(c?.headline).toBe(false);
    expect([c?.baseline, c?.candidate]).toEqual(["tau3", "tau3_lenient"]);
    expect(c?.flips.pass_to_fail).toBe(0);
    expect(c?.flips.fail_to_pass).toBeGreaterThan(0);
    expect(c?.flips).toEqual(summary.comparisons[NAME]?.flips);
    expect(c?.rankings.airline?.kendall_tau_b).not.toBeNull();
    // The headline (the experiment's first comparison) keeps the top-level fields.
    expect(written.comparisons["recorded-vs-tau3"]?.headline).toBe(true);
    expect(written.flips).toEqual(written.comparisons["recorded-vs-tau3"]?.flips);
  });

  it("has its rows, with the comparison column, in the reported views", () => {
    const csv = readFileSync(join(out, "flips.csv"), "utf8").split("\n");
    const header = csv[0]?.split(",") ?? [];
    const at = header.indexOf("comparison");
    expect(at).toBeGreaterThanOrEqual(0);
    expect(csv.filter((l) => l.split(",")[at] === NAME)).toHaveLength(
      summary.comparisons[NAME]?.flips.fail_to_pass ?? -1,
    );
    const ranking = JSON.parse(readFileSync(join(out, "ranking.json"), "utf8")) as { grader: string }[];
    expect(ranking.filter((r) => r.grader === "tau3_lenient")).toHaveLength(4);
    const tau = JSON.parse(readFileSync(join(out, "kendall_tau_b.json"), "utf8")) as { comparison: string }[];
    expect(tau.some((r) => r.comparison === NAME)).toBe(true);
  });

  it("has its charts and its section in the report", () => {
    const charts = readdirSync(join(out, "charts")).filter((f) => f.endsWith(`--${NAME}.svg`));
    expect(charts.length).toBeGreaterThan(0);
    expect(existsSync(join(out, "charts", `flip_rates_by_model--${NAME}.svg`))).toBe(true);
    const page = readFileSync(join(out, "report.html"), "utf8");
    expect(page).toContain(`id="cmp-${NAME}"`);
    expect(page).toContain(`charts/flip_rates_by_model--${NAME}.svg`);
    // Labelled as the module labels it: the registry the report reads holds it.
    expect(page).toContain("τ³ → τ³, components ignored");
  });
});
