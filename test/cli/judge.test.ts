/**
 * `grade` and `run` with the live judge, against a fake OpenAI-compatible server on 127.0.0.1: tau2's
 * calls only, concurrency, the cache, strict replies, exit codes, and an API key that never leaks.
 * The commands run in this process; the judge client's waits between retries are recorded, not waited.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { type FakeJudge, startFakeJudge } from "../helpers/fake-judge.ts";
import { writeExperiment } from "../helpers/small-run.ts";

/** Every wait the judge client asked for between attempts (its only timer). */
const waits = vi.hoisted(() => [] as number[]);
vi.mock("node:timers/promises", async (original) => ({
  ...(await original<typeof import("node:timers/promises")>()),
  setTimeout: async <T>(ms: number, value?: T) => {
    waits.push(ms);
    return value;
  },
}));

const cli = (args: readonly string[], env: Record<string, string> = {}) => cliInProcess(args, { env });

const KEY = "sk-test-NEVER-PRINT-1234";
let fake: FakeJudge;
let dir = "";
let file = "";

/** Retail head task 62: reward basis DB and NL_ASSERTION, two assertions, a read-only gold (the DB matches). */
function writeCorpus(
  n: number,
  extra: { task_id: string; termination_reason: string }[] = [],
  name = `results-${n}-${extra.length}`,
): string {
  const tasks = JSON.parse(readFileSync(join(DATA_DIR, "domains/retail/tasks.json"), "utf8")) as {
    id: string;
  }[];
  const ids = new Set(["62", ...extra.map((e) => e.task_id)]);
  // Task 62 with NL_ASSERTION dropped from its basis: tau2 would not call its judge there.
  const t62 = tasks.find((t) => t.id === "62") as {
    id: string;
    evaluation_criteria: { reward_basis: string[] };
  };
  const outsideBasis = {
    ...t62,
    id: "62-db-only",
    evaluation_criteria: { ...t62.evaluation_criteria, reward_basis: ["DB"] },
  };
  const sim = (i: number, task_id = "62", termination_reason = "user_stop") => ({
    id: `sim-${i}`,
    task_id,
    trial: 0,
    termination_reason,
    messages: [
      { role: "assistant", content: "Hi! How can I help you today?", tool_calls: null, turn_idx: 0 },
      { role: "user", content: `Question number ${i} about my speaker (${name}).`, turn_idx: 1 },
      {
        role: "assistant",
        content: "The speaker costs $302.67 and lasts 20 hours.",
        tool_calls: null,
        turn_idx: 2,
      },
    ],
    reward_info: null,
  });
  const path = join(dir, `${name}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      timestamp: "2026-01-01T00:00:00",
      info: {
        num_trials: 1,
        agent_info: { implementation: "llm_agent", llm: "agent-model" },
        user_info: { implementation: "user_simulator", llm: "user-model" },
        environment_info: { domain_name: "retail" },
      },
      tasks: [...tasks.filter((t) => ids.has(t.id)), ...(ids.has("62-db-only") ? [outsideBasis] : [])],
      simulations: [
        ...Array.from({ length: n }, (_, i) => sim(i)),
        ...extra.map((e, i) => sim(n + i, e.task_id, e.termination_reason)),
      ],
    }),
  );
  return path;
}

/** `grade --judge http` against `url` (the fake by default), with short retries and timeout. */
const grade = (args: readonly string[], url = fake.baseUrl) =>
  cli([
    "grade",
    "--data-dir",
    DATA_DIR,
    "--judge",
    "http",
    "--judge-base-url",
    url,
    "--judge-api-key",
    KEY,
    "--judge-retries",
    "1",
    "--judge-timeout",
    "2",
    ...args,
  ]);

const rewards = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { tau3: { reward: number | null; notes: string[]; nl: unknown } })
    .map((l) => l.tau3);

beforeAll(async () => {
  fake = await startFakeJudge();
  dir = mkdtempSync(join(tmpdir(), "tr-judge-"));
  file = writeCorpus(100);
  // Loads the command's modules and the task data once, so timed grades time the judge.
  const warm = await grade([writeCorpus(1, [], "warm-up")]);
  expect(warm.status, warm.stderr).toBe(0);
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.reset();
  waits.length = 0;
});

describe("grade --judge http", () => {
  it("judges 100 simulations concurrently, caches them, and a second run makes no call", async () => {
    const latency = 50;
    fake.latencyMs = latency;
    const cache = join(dir, "cache.duckdb");
    const started = Date.now();
    const first = await grade([file, "--judge-cache", cache]);
    const ms = Date.now() - started;
    expect(first.status, first.stderr).toBe(0);
    expect(fake.chats()).toHaveLength(100);
    expect(fake.maxInFlight).toBeGreaterThanOrEqual(4);
    expect(ms).toBeLessThan(100 * latency);
    expect(first.stderr).toContain("judge: 100 judged, 0 cached, 0 failed");
    expect(rewards(first.stdout).every((v) => v.reward === 1)).toBe(true);
    const second = await grade([file, "--judge-cache", cache]);
    expect(second.status, second.stderr).toBe(0);
    expect(fake.chats()).toHaveLength(100); // no new call
    expect(second.stderr).toContain("judge: 0 judged, 100 cached, 0 failed");
    expect(second.stdout).toBe(first.stdout.replaceAll('"cached":false', '"cached":true'));
    for (const out of [
      first.stdout,
      first.stderr,
      second.stdout,
      second.stderr,
      readFileSync(cache, "latin1"),
    ])
      expect(out).not.toContain(KEY);
  });

  it("keeps requests in flight across files, not only within one", async () => {
    fake.latencyMs = 50;
    const files = Array.from({ length: 10 }, (_, i) => writeCorpus(2, [], `many-${i}`));
    const r = await grade(files);
    expect(r.status, r.stderr).toBe(0);
    expect(fake.chats()).toHaveLength(20);
    expect(fake.maxInFlight).toBeGreaterThanOrEqual(4); // two simulations per file
  });

  it.each(["null", "empty_list", "missing_keys", "truncated", "server_error"] as const)(
    "a %s reply never gives reward 1, says why, and exits 1",
    async (mode) => {
      fake.mode = () => mode;
      const small = writeCorpus(3);
      const r = await grade([small]);
      expect(r.status).toBe(1);
      const verdicts = rewards(r.stdout);
      expect(verdicts).toHaveLength(3);
      for (const v of verdicts) {
        expect(v.reward).toBeNull();
        expect(v.notes.join("\n")).toMatch(/NL_ASSERTION unknown: NL judge failed: /);
      }
      expect(r.stderr).toMatch(/judge: 0 judged, 0 cached, 3 failed \(3× /);
      // --judge-retries 1: a failed transfer is retried once after a backoff, a bad reply never.
      expect(waits).toHaveLength(mode === "server_error" || mode === "truncated" ? 3 : 0);
      expect(r.stderr + r.stdout).not.toContain(KEY);
    },
  );

  it("all-false verdicts score 0; a degenerate reply keeps tau2's score and is flagged", async () => {
    fake.mode = () => "all_false";
    const f = writeCorpus(2);
    const r = await grade([f]);
    expect(r.status).toBe(0);
    expect(rewards(r.stdout).map((v) => v.reward)).toEqual([0, 0]);
    fake.mode = () => "partial";
    const p = await grade([f]);
    const v = rewards(p.stdout);
    expect(v.map((x) => x.reward)).toEqual([1, 1]);
    expect(v[0]?.notes).toContain(
      "degenerate_judge_reply: the reply judged 1 of 2 assertions (tau2 scores the ones returned)",
    );
    expect(p.stderr).toContain("2 degenerate replies");
    // The structured grader reports it, and fails on it only when gated.
    const structured = async (gate: string[]) => {
      const out = await grade([f, "--grader", "tau3,structured", ...gate]);
      return out.stdout
        .trim()
        .split("\n")
        .map(
          (l) => JSON.parse(l).structured as { pass: boolean; causes: { kind: string; gates: boolean }[] },
        );
    };
    const reported = await structured([]);
    expect(reported.map((v) => v.pass)).toEqual([true, true]);
    expect(reported[0]?.causes).toContainEqual(
      expect.objectContaining({ kind: "degenerate_judge_reply", gates: false }),
    );
    const gated = await structured(["--gate", "degenerate_judge"]);
    expect(gated.map((v) => v.pass)).toEqual([false, false]);
    expect(gated[0]?.causes[0]).toMatchObject({ kind: "degenerate_judge_reply", gates: true });
  });

  it("asks only where tau2 would: not outside the reward basis, not after a premature end", async () => {
    const f = writeCorpus(1, [
      { task_id: "62", termination_reason: "max_steps" },
      { task_id: "62-db-only", termination_reason: "user_stop" },
    ]);
    const r = await grade([f]);
    expect(r.status, r.stderr).toBe(0);
    expect(fake.chats()).toHaveLength(1);
    const [judged, premature, outside] = rewards(r.stdout);
    expect(judged?.nl).toMatchObject({ status: "judged", judge_model: "gpt-4.1-2025-04-14", cached: false });
    expect(premature?.nl).toBeNull();
    expect(outside?.nl).toBeNull();
    expect(outside?.notes.join("\n")).not.toContain("NL_ASSERTION");
    // --judge-all asks there too (for analysis), still not after a premature end
    fake.seen.length = 0;
    const all = await grade([f, "--judge-all"]);
    expect(all.status, all.stderr).toBe(0);
    expect(fake.chats()).toHaveLength(2);
  });

  it("a base URL nothing answers at is a usage error before grading", async () => {
    const closed = await startFakeJudge();
    const url = closed.baseUrl;
    await closed.close();
    const r = await grade([file], url);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`tau-rescore: judge base URL ${url} is not reachable: ECONNREFUSED\n`);
    expect(r.stdout).toBe("");
  });

  it("rejects bad judge flags with exit 2", async () => {
    for (const bad of [
      ["--judge-concurrency", "0"],
      ["--judge-timeout", "x"],
      ["--judge-params", "[1]"],
    ]) {
      const r = await grade([file, ...bad]);
      expect(r.status, bad.join(" ")).toBe(2);
    }
  });
});

describe("run with judge http", () => {
  function experiment(name: string, corpus: string): string {
    return writeExperiment(
      join(dir, `${name}.json`),
      { name, corpus: [corpus], output: `${name}.duckdb`, judge: { mode: "http", base_url: fake.baseUrl } },
      { corpus: dir, output: dir },
    );
  }
  const run = (exp: string) =>
    cli(["run", exp, "--judge-retries", "0", "--judge-timeout", "2"], {
      TAU_RESCORE_JUDGE_API_KEY: KEY,
    });

  it("stores every assertion with its reasoning and cache key, never the key; a failed judgement is asked again next run", async () => {
    const corpus = writeCorpus(4);
    const exp = experiment("judged", corpus.slice(dir.length + 1));
    fake.mode = (n) => (n === 0 ? "server_error" : "ok");
    const first = await run(exp);
    expect(first.status).toBe(1);
    expect(first.stderr).toContain("judge: 3 judged, 0 cached, 1 failed (1× HTTP 500, after 1 attempts)");
    expect(fake.chats()).toHaveLength(4);
    fake.seen.length = 0;
    fake.mode = () => "ok";
    const second = await run(exp);
    expect(second.status, second.stderr).toBe(0);
    // Only the failed simulation is asked again; the three others come from the store's cache.
    expect(fake.chats()).toHaveLength(1);
    expect(second.stderr).toContain("judge: 1 judged, 3 cached, 0 failed");
    const third = await run(exp);
    expect(third.status, third.stderr).toBe(0);
    expect(fake.chats()).toHaveLength(1);
    const db = join(dir, "judged.duckdb");
    const q = await cli(["report", "--db", db, "--out", join(dir, "judged-report")]);
    expect(q.status, q.stderr).toBe(0);
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const inst = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
    const conn = await inst.connect();
    const rows = async (sql: string) => (await conn.runAndReadAll(sql)).getRowObjectsJson();
    expect(await rows("SELECT count(*)::INTEGER AS n FROM judgments")).toEqual([{ n: 4 }]);
    const nl = await rows(
      "SELECT assertion, met, reasoning, judge_model, length(cache_key)::INTEGER AS k FROM nl_assertions ORDER BY sim_key, seq",
    );
    expect(nl).toHaveLength(8);
    expect(nl[0]).toMatchObject({
      met: true,
      reasoning: "fake: true",
      judge_model: "gpt-4.1-2025-04-14",
      k: 64,
    });
    expect(
      await rows("SELECT count(*)::INTEGER AS n FROM verdicts WHERE grader = 'tau3' AND reward = 1"),
    ).toEqual([{ n: 4 }]);
    conn.closeSync();
    inst.closeSync();
    const reportFiles = readdirSync(join(dir, "judged-report"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), "latin1"));
    expect(reportFiles.length).toBeGreaterThan(3);
    for (const out of [first.stderr, second.stderr, readFileSync(db, "latin1"), ...reportFiles])
      expect(out).not.toContain(KEY);
  });

  it("the judge model, wherever it comes from, is part of the run id", async () => {
    const exp = experiment("models", writeCorpus(1).slice(dir.length + 1));
    const a = await cli(["run", exp], { TAU_RESCORE_JUDGE_MODEL: "model-a" });
    const b = await cli(["run", exp], { TAU_RESCORE_JUDGE_MODEL: "model-b" });
    const id = (s: string) => /run ([0-9a-f]{16}) of/.exec(s)?.[1];
    expect(id(a.stderr)).toBeDefined();
    expect(id(a.stderr)).not.toBe(id(b.stderr));
    expect(fake.chats().map((r) => r.body.model)).toEqual(["model-a", "model-b"]);
  });
});
