/**
 * A judge reply larger than the limit is abandoned: Content-Length is checked before reading, and a
 * streamed body is cancelled once it passes the limit. The judgement fails with the reason, is not
 * retried (the same request would get the same reply) and is not cached. The limit is lowered here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Simulation } from "../../../../src/formats/model.ts";
import { JudgmentCache } from "../../../../src/graders/tau3/judge/cache.ts";
import { MAX_REPLY_BYTES } from "../../../../src/graders/tau3/judge/client.ts";
import { httpJudge } from "../../../../src/graders/tau3/judge/http-judge.ts";
import { ENDLESS_CAP, type FakeJudge, startFakeJudge } from "../../../helpers/fake-judge.ts";
import { say } from "../../../helpers/messages.ts";
import { task } from "../../../helpers/tasks.ts";

let fake: FakeJudge;
beforeAll(async () => {
  fake = await startFakeJudge();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const A = ["Agent refuses the refund"];
const sim: Simulation = {
  id: "s1",
  task_id: "t1",
  trial: 0,
  termination_reason: "user_stop",
  messages: [say("user", "Can I cancel?"), say("assistant", "No, it's not refundable.")],
  reward_info: null,
};
// One retry allowed, to show it is not used; the timeout only ends a client that keeps reading.
const policy = { baseBackoffMs: 5, maxBackoffMs: 20, timeoutMs: 10_000, retries: 1 };
const judgeWith = (cache: JudgmentCache, maxReplyBytes?: number) =>
  httpJudge({
    baseUrl: fake.baseUrl,
    model: "m1",
    apiKey: null,
    policy,
    cache,
    ...(maxReplyBytes === undefined ? {} : { maxReplyBytes }),
  });

describe("judge replies are bounded", () => {
  it("cancels a streamed reply past the limit: failed with the reason, not retried, not cached", async () => {
    fake.mode = () => "endless";
    const cache = new JudgmentCache();
    const judge = judgeWith(cache, 64 * 1024);
    const j = await judge.judge(task({}), sim, A);
    expect(j).toEqual({
      status: "unknown",
      reason: "NL judge failed: reply larger than 64 KiB",
      failed: true,
    });
    expect(fake.chats()).toHaveLength(1);
    expect(judge.stats.failed).toBe(1);
    expect(cache.size).toBe(0);
    expect(cache.takeFresh()).toEqual([]);
    // The client went away mid-stream: the server never reached its own cap.
    await vi.waitFor(() => expect(fake.streamed).toHaveLength(1), { timeout: 60_000 });
    expect(fake.streamed[0]).toBeLessThan(ENDLESS_CAP);

    fake.mode = () => "ok";
    expect((await judge.judge(task({}), sim, A)).status).toBe("judged");
    expect(fake.chats()).toHaveLength(2); // asked again: the failure was not cached
  });

  it("refuses a reply whose Content-Length is over the limit without reading it", async () => {
    fake.mode = () => "declared_huge";
    const cache = new JudgmentCache();
    const judge = judgeWith(cache, 64 * 1024 + 1);
    const j = await judge.judge(task({}), sim, A);
    expect(j.status === "unknown" && j.reason).toBe("NL judge failed: reply larger than 65537 bytes");
    expect(fake.chats()).toHaveLength(1);
    expect(cache.size).toBe(0);
  });

  it("limits replies to 4 MiB by default", async () => {
    expect(MAX_REPLY_BYTES).toBe(4 * 1024 * 1024);
    fake.mode = () => "declared_huge";
    const j = await judgeWith(new JudgmentCache()).judge(task({}), sim, A);
    expect(j.status === "unknown" && j.reason).toBe("NL judge failed: reply larger than 4 MiB");
  });
});
