/** The live judge against a fake OpenAI-compatible server on 127.0.0.1. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Simulation } from "../../../../src/formats/model.ts";
import { JudgmentCache } from "../../../../src/graders/tau3/judge/cache.ts";
import { httpJudge } from "../../../../src/graders/tau3/judge/http-judge.ts";
import { judgeMessages } from "../../../../src/graders/tau3/judge/prompt.ts";
import { nlReward } from "../../../../src/graders/tau3/nl.ts";
import { type FakeJudge, startFakeJudge } from "../../../helpers/fake-judge.ts";
import { say } from "../../../helpers/messages.ts";
import { task } from "../../../helpers/tasks.ts";

let fake: FakeJudge;
beforeAll(async () => {
  fake = await startFakeJudge();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const A = ["Agent refuses the refund", "Agent apologises"];
const simN = (i: number): Simulation => ({
  id: `s${i}`,
  task_id: "t1",
  trial: 0,
  termination_reason: "user_stop",
  messages: [say("user", `Can I cancel order ${i}?`), say("assistant", "No, it's not refundable.")],
  reward_info: null,
});
const fast = { baseBackoffMs: 5, maxBackoffMs: 20, timeoutMs: 2_000 };
const judgeWith = (over: Partial<Parameters<typeof httpJudge>[0]> = {}) =>
  httpJudge({ baseUrl: fake.baseUrl, model: "m1", apiKey: "sk-test-SECRET", policy: fast, ...over });

describe("httpJudge", () => {
  it("sends tau2's request: its two messages, the model and temperature 0, nothing else", async () => {
    const j = await judgeWith().judge(task({}), simN(1), A);
    expect(j.status).toBe("judged");
    const [req] = fake.chats();
    expect(req?.body).toEqual({ model: "m1", temperature: 0, messages: judgeMessages(simN(1).messages, A) });
    expect(req?.headers.authorization).toBe("Bearer sk-test-SECRET");
    if (j.status === "judged") {
      expect(j.results.map((r) => r.met)).toEqual([true, true]);
      expect(j.provenance).toMatchObject({ model: "m1", cached: false, degenerate: null });
    }
  });

  it("sends extra request parameters only when asked", async () => {
    await judgeWith({ params: { response_format: { type: "json_object" } } }).judge(task({}), simN(1), A);
    expect(fake.chats()[0]?.body.response_format).toEqual({ type: "json_object" });
  });

  it.each(["null", "empty_list", "missing_keys", "truncated"] as const)(
    "a %s reply is unknown with its reason, never a pass",
    async (mode) => {
      fake.mode = () => mode;
      const judge = judgeWith();
      const j = await judge.judge(task({}), simN(1), A);
      expect(j.status).toBe("unknown");
      expect(nlReward(j)).toBeNull();
      expect(j.status === "unknown" && j.failed).toBe(true);
      expect(judge.stats.failed).toBe(1);
    },
  );

  it("keeps tau2's score for a degenerate reply and flags it", async () => {
    fake.mode = () => "empty_object";
    const judge = judgeWith();
    const j = await judge.judge(task({}), simN(1), A);
    expect(nlReward(j)).toBe(1);
    expect(j.status === "judged" && j.provenance?.degenerate).toBe(
      "the reply has no `results` (tau2 scores it 1)",
    );
    expect(judge.stats.degenerate).toBe(1);
  });

  it("retries a 500 three times, then fails with the reason", async () => {
    fake.mode = () => "server_error";
    const waits: number[] = [];
    const judge = judgeWith({ sleep: async (ms) => waits.push(ms) });
    const j = await judge.judge(task({}), simN(1), A);
    expect(fake.chats()).toHaveLength(4);
    // Exponential backoff with equal jitter: half the step at least, doubling from 5 ms up to 20 ms.
    expect(waits).toHaveLength(3);
    waits.forEach((w, i) => {
      const step = Math.min(20, 5 * 2 ** i);
      expect(w).toBeGreaterThanOrEqual(step / 2);
      expect(w).toBeLessThanOrEqual(step);
    });
    expect(j).toEqual({
      status: "unknown",
      reason: "NL judge failed: HTTP 500, after 4 attempts",
      failed: true,
    });
  });

  it("does not retry a 4xx other than 408, 409 and 429", async () => {
    fake.mode = () => "ok";
    const judge = httpJudge({ baseUrl: `${fake.baseUrl}/nowhere`, model: "m1", apiKey: null, policy: fast });
    const j = await judge.judge(task({}), simN(1), A);
    expect(j.status === "unknown" && j.reason).toBe("NL judge failed: HTTP 404");
  });

  it("a hung judge times out per attempt and fails (no hang)", async () => {
    fake.mode = () => "hang";
    const judge = judgeWith({ policy: { ...fast, timeoutMs: 150, retries: 1 } });
    const started = Date.now();
    const j = await judge.judge(task({}), simN(1), A);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(j.status === "unknown" && j.reason).toBe(
      "NL judge failed: no reply within 0.15 s, after 2 attempts",
    );
  });

  it("six 429s in a row (Retry-After: 1), then ok: every simulation is still judged", async () => {
    fake.mode = (n) => (n < 6 ? "rate_limited" : "ok");
    // The waits are recorded, not waited: the client asks for each one.
    const waits: number[] = [];
    const judge = judgeWith({ sleep: async (ms) => waits.push(ms) });
    const sims = Array.from({ length: 8 }, (_, i) => simN(i));
    const js = await Promise.all(sims.map((s) => judge.judge(task({}), s, A)));
    expect(js.every((j) => j.status === "judged")).toBe(true);
    expect(judge.stats.retries).toBe(6);
    expect(waits).toEqual(Array(6).fill(1000)); // Retry-After honoured, not the 5 ms backoff
  });

  it("keeps at least 4 requests in flight: 100 simulations at 50 ms take well under 100 × 50 ms", async () => {
    const latency = 50;
    fake.latencyMs = latency;
    const judge = judgeWith({ concurrency: 8 });
    const sims = Array.from({ length: 100 }, (_, i) => simN(i));
    const started = Date.now();
    judge.prefetch?.(sims.map((sim) => ({ task: task({}), sim, assertions: A })));
    const js = [];
    for (const s of sims) js.push(await judge.judge(task({}), s, A));
    const ms = Date.now() - started;
    expect(js.every((j) => j.status === "judged")).toBe(true);
    expect(fake.maxInFlight).toBeGreaterThanOrEqual(4);
    expect(fake.maxInFlight).toBeLessThanOrEqual(8);
    expect(ms).toBeLessThan((100 * latency) / 3);
  });

  it("answers a repeated request from the cache; a changed model misses it", async () => {
    const cache = new JudgmentCache();
    const first = judgeWith({ cache });
    await first.judge(task({}), simN(1), A);
    const again = judgeWith({ cache });
    const j = await again.judge(task({}), simN(1), A);
    expect(fake.chats()).toHaveLength(1);
    expect(j.status === "judged" && j.provenance?.cached).toBe(true);
    expect(again.stats.cached).toBe(1);
    await judgeWith({ cache, model: "m2" }).judge(task({}), simN(1), A);
    expect(fake.chats()).toHaveLength(2);
  });

  it("does not cache a failed reply: the next run asks again", async () => {
    const cache = new JudgmentCache();
    fake.mode = () => "null";
    await judgeWith({ cache }).judge(task({}), simN(1), A);
    fake.mode = () => "ok";
    const j = await judgeWith({ cache }).judge(task({}), simN(1), A);
    expect(j.status).toBe("judged");
    expect(fake.chats()).toHaveLength(2);
  });
});
