/** The HTTP judge against a local fake OpenAI-compatible server (no network beyond loopback). */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Simulation } from "../../../src/formats/model.ts";
import { httpJudge, judgeUserPrompt } from "../../../src/graders/tau3/judge-http.ts";
import { say } from "../../helpers/messages.ts";
import { task } from "../../helpers/tasks.ts";

let server: Server;
let base = "";
const seen: {
  auth: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}[] = [];
let reply: (body: unknown) => { status: number; json: unknown } = () => ({ status: 500, json: {} });

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let s = "";
    req.on("data", (c) => {
      s += c;
    });
    req.on("end", () => resolve(s));
  });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = JSON.parse(await read(req));
    seen.push({ auth: req.headers.authorization, body });
    const r = reply(body);
    res.writeHead(r.status, { "content-type": "application/json" });
    res.end(JSON.stringify(r.json));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const sim: Simulation = {
  id: "s",
  task_id: "t1",
  trial: 0,
  termination_reason: "user_stop",
  messages: [say("user", "Can I cancel?"), say("assistant", "No, it's not refundable.")],
  reward_info: null,
};
const chat = (content: string) => ({ status: 200, json: { choices: [{ message: { content } }] } });

describe("httpJudge", () => {
  it("sends tau2's prompt shape and reads the results", async () => {
    reply = () =>
      chat(
        JSON.stringify({
          results: [{ expectedOutcome: "Agent refuses", reasoning: "said no", metExpectation: true }],
        }),
      );
    const j = await httpJudge({ baseUrl: base, model: "m1", apiKey: "k" }).judge(task({}), sim, [
      "Agent refuses",
    ]);
    expect(j).toEqual({
      status: "judged",
      source: "http:m1",
      results: [{ assertion: "Agent refuses", met: true, justification: "said no" }],
    });
    const last = seen.at(-1)!;
    expect(last.auth).toBe("Bearer k");
    expect(last.body.model).toBe("m1");
    expect(last.body.messages[1]?.content).toBe(judgeUserPrompt(sim.messages, ["Agent refuses"]));
    expect(last.body.messages[1]?.content).toContain(
      "user: Can I cancel?\nassistant: No, it's not refundable.",
    );
    expect(last.body.messages[1]?.content).toContain(`expectedOutcomes:\n['Agent refuses']`);
  });
  it("is unknown, never a pass, on HTTP errors and malformed replies", async () => {
    const judge = httpJudge({ baseUrl: base, model: "m", apiKey: null });
    reply = () => ({ status: 503, json: {} });
    expect((await judge.judge(task({}), sim, ["x"])).status).toBe("unknown");
    reply = () => chat("not json");
    expect(await judge.judge(task({}), sim, ["x"])).toEqual({
      status: "unknown",
      reason: "judge reply is not JSON",
    });
    reply = () => chat(JSON.stringify({ results: [{ expectedOutcome: "x" }] }));
    expect((await judge.judge(task({}), sim, ["x"])).status).toBe("unknown");
  });
  it("is unknown when the endpoint cannot be reached", async () => {
    const j = await httpJudge({
      baseUrl: "http://127.0.0.1:9/v1",
      model: "m",
      apiKey: null,
      timeoutMs: 2000,
    }).judge(task({}), sim, ["x"]);
    expect(j.status).toBe("unknown");
  });
});
