/**
 * `tau-rescore run` and `report` on the grader seam: a bad config is refused before anything is
 * written, every verdict carries its grader's version and spec hash, another spec is another run, and
 * the views read one run (the latest completed one unless told).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { type GRADER_IDS, graderOf } from "../../src/graders/registry.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { smallExperiment } from "../helpers/small-run.ts";

/** `tau-rescore ...args` in-process, with `env` as its whole environment. */
const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

const SMALL = [
  "jitrc-tau2-enhanced/airline_gemini2_5_flash_10tasks_2t.json",
  "sierra-tau2-bench__pr448-whissle/airline_run1.json",
];

let dir = "";
let experiment = "";
let db = "";
const config = () => JSON.parse(readFileSync(experiment, "utf8"));
/** A copy of the experiment with `change` applied, written next to it. */
function variant(name: string, change: (c: Record<string, unknown>) => void): string {
  const c = config();
  change(c);
  const path = join(dir, "experiments", `${name}.json`);
  writeFileSync(path, JSON.stringify(c));
  return path;
}

async function query<T>(sql: string, run?: string): Promise<T[]> {
  const store = await VerdictStore.open(db);
  try {
    if (sql.includes("VIEW:")) await installAnalyses(store, run);
    return await rows<T>(store, sql.replace("VIEW:", ""));
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  ({ dir, experiment } = smallExperiment(SMALL));
  db = join(dir, "seam.duckdb");
  const r = await cli(["run", experiment, "--db", db]);
  expect(r.status, r.stderr).toBe(0);
});

describe("the store after a run", () => {
  it("has causes and evidence, and verdicts with grader, version and spec hash", async () => {
    const tables = await query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1",
    );
    const names = tables.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["causes", "evidence", "verdicts", "components"]));
    for (const old of ["violations", "field_diffs", "policy_hits"]) expect(names).not.toContain(old);
    const verdicts = await query<{ grader: string; grader_version: string; spec_hash: string; n: number }>(
      "SELECT grader, grader_version, spec_hash, count(*) AS n FROM verdicts GROUP BY ALL ORDER BY grader",
    );
    expect(verdicts.map((v) => v.grader)).toEqual([
      "structured",
      "structured_strict",
      "tau3",
      "tau3_corrected",
    ]);
    for (const v of verdicts) {
      expect(v.grader_version).toBe(graderOf(v.grader as (typeof GRADER_IDS)[number]).version);
      expect(v.spec_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(new Set(verdicts.map((v) => v.spec_hash)).size).toBe(4);
  });

  it("locates every requirement cause at its tool call, with the quote in its evidence", async () => {
    const causes = await query<{
      reference: string;
      tool_call_id: string | null;
      actor: string;
      quote: string;
    }>(
      `SELECT c.reference, c.tool_call_id, c.actor, e.quote FROM causes c
       JOIN evidence e ON e.run_id = c.run_id AND e.sim_key = c.sim_key AND e.grader = c.grader AND e.cause_seq = c.seq
       WHERE c.kind = 'requirement' AND e.seq = 0`,
    );
    expect(causes.length).toBeGreaterThan(0);
    for (const c of causes) {
      expect(c.tool_call_id).not.toBeNull();
      expect(c.actor).toBe("agent");
      expect(c.quote.length).toBeGreaterThan(8);
    }
    expect(causes.map((c) => c.reference)).toContain("airline.47.no_transfer");
  });

  it("marks vacuous components, and the views count them", async () => {
    const vacuous = await query<{ component: string; in_basis: number; vacuous_in_basis: number }>(
      "VIEW:SELECT component, in_basis, vacuous_in_basis FROM vacuous_components WHERE grader = 'tau3' ORDER BY component",
    );
    const communicate = vacuous.find((v) => v.component === "COMMUNICATE");
    // Airline tasks grade on DB and COMMUNICATE; most have no communicate_info.
    expect(communicate?.vacuous_in_basis).toBeGreaterThan(0);
    expect(vacuous.find((v) => v.component === "DB")?.vacuous_in_basis).toBe(0);
    const direct = await query<{ n: number }>(
      `SELECT count(*) AS n FROM components WHERE grader = 'tau3' AND component = 'COMMUNICATE' AND in_basis AND vacuous`,
    );
    expect(direct[0]?.n).toBe(communicate?.vacuous_in_basis);
  });
});

describe("conversations for reviewers", () => {
  it("are stored, with the task text and a content fingerprint, for exactly the simulations whose graders disagree", async () => {
    const disagreeing = await query<{ sim_key: string }>(
      `SELECT sim_key FROM verdicts WHERE pass IS NOT NULL GROUP BY sim_key
       HAVING bool_or(pass) AND bool_or(NOT pass) ORDER BY sim_key`,
    );
    const stored = await query<{
      sim_key: string;
      fingerprint: string;
      instructions: string;
      criteria: string;
    }>("SELECT sim_key, fingerprint, instructions, criteria FROM sim_context ORDER BY sim_key");
    expect(disagreeing.length).toBeGreaterThan(0);
    expect(stored.map((r) => r.sim_key)).toEqual(disagreeing.map((r) => r.sim_key));
    for (const r of stored) {
      expect(r.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.parse(r.criteria)).toHaveProperty("reward_basis");
      expect(r.instructions.length).toBeGreaterThan(0);
    }
    const messages = await query<{ sim_key: string; n: number; first: number; last: number }>(
      `SELECT sim_key, count(*) AS n, min(message_index) AS first, max(message_index) AS last
       FROM conversations GROUP BY sim_key ORDER BY sim_key`,
    );
    expect(messages.map((m) => m.sim_key)).toEqual(disagreeing.map((r) => r.sim_key));
    for (const m of messages) expect([m.first, m.last]).toEqual([0, m.n - 1]);
  });
});

describe("a configuration mistake", () => {
  it.each([
    [
      "an unknown policy rule",
      (c: Record<string, unknown>): unknown => (c.gate = { policy_rules: ["no_such_rule"] }),
      /gate\.policy_rules\[0\].*unknown policy rule "no_such_rule"/,
    ],
    [
      "an unknown quirk",
      (c: Record<string, unknown>): unknown => (c.quirks = { overrides: ["nope=on"] }),
      /quirks\.overrides\[0\].*bad quirk override "nope=on"/,
    ],
    [
      "a judge URL that is not http(s)",
      (c: Record<string, unknown>): unknown => (c.judge = { mode: "http", base_url: "file:///etc/passwd" }),
      /judge\.base_url.*not an http\(s\) URL/,
    ],
    [
      "a judge without an endpoint",
      (c: Record<string, unknown>): unknown => (c.judge = { mode: "http" }),
      /judge mode http needs a base URL/,
    ],
    [
      "gating on curated NL without corrections",
      (c: Record<string, unknown>): void => {
        c.corrections = false;
        c.gate = { nl_curated: true };
      },
      /gate\.nl_curated.*corrections overlay/,
    ],
    [
      "the removed task_version field",
      (c: Record<string, unknown>): unknown => (c.task_version = "embedded"),
      /task_version/,
    ],
  ] as const)(
    "(%s) exits 2 with one line, and leaves the runs table as it was",
    async (_what, change, pattern) => {
      const before = await query("SELECT * FROM runs ORDER BY ALL");
      const bad = variant("bad", change);
      const r = await cli(["run", bad, "--db", db], { TAU_RESCORE_JUDGE_BASE_URL: "", OPENAI_BASE_URL: "" });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
      expect(await query("SELECT * FROM runs ORDER BY ALL")).toEqual(before);
    },
  );
});

describe("another spec", () => {
  it("is another run: new verdicts under new spec hashes, τ³'s unchanged when only a gate changed", async () => {
    const gated = variant("gated", (c) => (c.gate = { policy_rules: ["multiple_actions_in_turn"] }));
    const r = await cli(["run", gated, "--db", db]);
    expect(r.status, r.stderr).toBe(0);
    const runs = await query<{ run_id: string; seq: number; completed: boolean }>(
      "SELECT run_id, seq, completed FROM runs ORDER BY seq",
    );
    expect(runs).toHaveLength(2);
    expect(runs.every((x) => x.completed)).toBe(true);
    const hashes = await query<{ run_id: string; grader: string; spec_hash: string }>(
      "SELECT DISTINCT run_id, grader, spec_hash FROM verdicts",
    );
    const of = (run: string, grader: string) =>
      hashes.find((h) => h.run_id === run && h.grader === grader)?.spec_hash;
    const [first, second] = runs.map((x) => x.run_id) as [string, string];
    expect(of(second, "structured")).not.toBe(of(first, "structured"));
    expect(of(second, "tau3")).toBe(of(first, "tau3"));
    // Gating on the rule fails more simulations in the new run than in the first.
    const passes = async (run: string) =>
      (
        await query<{ n: number }>(
          `VIEW:SELECT count(*) FILTER (WHERE pass) AS n FROM run_verdicts WHERE grader = 'structured'`,
          run,
        )
      )[0]?.n ?? 0;
    expect(await passes(second)).toBeLessThan(await passes(first));
  });

  it("views read the latest completed run unless told; an interrupted run is not the default", async () => {
    const runs = await query<{ run_id: string }>("SELECT run_id FROM runs ORDER BY seq");
    const [first, second] = runs.map((x) => x.run_id) as [string, string];
    const current = async (run?: string) =>
      (await query<{ run_id: string }>("VIEW:SELECT run_id FROM current_run", run))[0]?.run_id;
    expect(await current()).toBe(second);
    expect(await current(first)).toBe(first);
    const store = await VerdictStore.open(db);
    await store.conn.run(`UPDATE runs SET completed = false WHERE run_id = '${second}'`);
    store.close();
    expect(await current()).toBe(first);
    const report = await cli(["report", "--db", db, "--out", join(dir, "report-first")]);
    expect(report.status, report.stderr).toBe(0);
    expect(report.stderr).toContain(`(run ${first} of small)`);
    const summary = JSON.parse(readFileSync(join(dir, "report-first", "summary.json"), "utf8"));
    expect(summary.run.run_id).toBe(first);
    const chosen = await cli(["report", "--db", db, "--out", join(dir, "report-second"), "--run", second]);
    expect(chosen.status, chosen.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "report-second", "summary.json"), "utf8")).run.run_id).toBe(
      second,
    );
    const unknown = await cli(["report", "--db", db, "--out", join(dir, "report-x"), "--run", "nope"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(
      new RegExp(`has no run nope; its runs: ${first} \\(small\\), ${second} \\(small\\)`),
    );
  });
});
