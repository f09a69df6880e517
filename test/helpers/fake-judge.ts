/**
 * A fake OpenAI-compatible chat endpoint on 127.0.0.1 for judge tests. Each request is answered by
 * the mode the test picks (per request number), after an optional latency; the server records every
 * request and the most requests it ever had in flight at once.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeMode =
  | "ok"
  | "all_false"
  | "null"
  | "empty_list"
  | "missing_keys"
  | "rate_limited"
  | "server_error"
  | "hang"
  | "truncated"
  | "empty_object"
  | "partial"
  /** 200 with a `Content-Length` of 1 GiB, then nothing: only the header says it is large. */
  | "declared_huge"
  /** 200, chunked, spaces streamed until the client goes away (or `ENDLESS_CAP` bytes, then silence). */
  | "endless";

/** Where an `endless` reply stops sending (and hangs), so a client that never stops reading stays bounded. */
export const ENDLESS_CAP = 64 * 1024 * 1024;

export interface SeenRequest {
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: {
    model: string;
    temperature?: number;
    messages: { role: string; content: string }[];
    [k: string]: unknown;
  };
}

export interface FakeJudge {
  readonly baseUrl: string;
  readonly seen: SeenRequest[];
  /** Chat completion requests only (not the start-up probe). `mode` is asked with the index among them. */
  readonly chats: () => SeenRequest[];
  maxInFlight: number;
  /** Bytes each `endless` reply had sent when its connection closed. */
  readonly streamed: number[];
  mode: (requestNumber: number) => FakeMode;
  latencyMs: number;
  /** Forgets the requests seen, and answers `ok` at once again. */
  reset(): void;
  close(): Promise<void>;
}

/** The assertions of a request, read back from the user prompt's Python list. */
const assertionsOf = (body: SeenRequest["body"]): string[] => {
  const user = body.messages[1]?.content ?? "";
  const list = user.slice(user.indexOf("expectedOutcomes:\n") + "expectedOutcomes:\n".length).trim();
  return [...list.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? m[2] ?? "");
};

const chat = (content: string | null) => ({
  id: "x",
  object: "chat.completion",
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
});

function answer(
  mode: FakeMode,
  body: SeenRequest["body"],
  res: ServerResponse,
  streamed: (bytes: number) => void,
): void {
  const json = (status: number, v: unknown, headers: Record<string, string> = {}): true => {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(v));
    return true;
  };
  if (mode === "endless") endless(res, streamed);
  else answered(mode, body, res, json);
}

/** Streams spaces as fast as the client reads them, until it goes away or `ENDLESS_CAP` is sent. */
function endless(res: ServerResponse, streamed: (bytes: number) => void): void {
  res.writeHead(200, { "content-type": "application/json" });
  const chunk = Buffer.alloc(16 * 1024, 0x20);
  let sent = 0;
  res.on("close", () => streamed(sent));
  const pump = () => {
    while (!res.destroyed && sent < ENDLESS_CAP) {
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once("drain", pump);
        return;
      }
    }
  };
  pump();
}

function answered(
  mode: FakeMode,
  body: SeenRequest["body"],
  res: ServerResponse,
  json: (status: number, v: unknown, headers?: Record<string, string>) => true,
): boolean {
  const results = (met: boolean) =>
    assertionsOf(body).map((a) => ({ expectedOutcome: a, reasoning: `fake: ${met}`, metExpectation: met }));
  switch (mode) {
    case "ok":
      return json(200, chat(JSON.stringify({ results: results(true) })));
    case "all_false":
      return json(200, chat(JSON.stringify({ results: results(false) })));
    case "null":
      return json(200, chat(null));
    case "empty_list":
      return json(200, chat("[]"));
    case "missing_keys":
      return json(200, chat(JSON.stringify({ results: [{ reasoning: "no outcome, no verdict" }] })));
    case "empty_object":
      return json(200, chat("{}"));
    case "partial":
      return json(200, chat(JSON.stringify({ results: results(true).slice(0, 1) })));
    case "rate_limited":
      return json(429, { error: { message: "rate limited" } }, { "retry-after": "1" });
    case "server_error":
      return json(500, { error: { message: "boom" } });
    case "truncated": {
      res.writeHead(200, { "content-type": "application/json" });
      const text = JSON.stringify(chat(JSON.stringify({ results: results(true) })));
      res.end(text.slice(0, Math.floor(text.length / 2)));
      return true;
    }
    case "declared_huge":
      res.writeHead(200, { "content-type": "application/json", "content-length": String(2 ** 30) });
      res.flushHeaders();
      return true;
    case "endless":
      return true; // streamed by `endless`
    case "hang":
      return false; // never answers; the client's timeout ends it
  }
}

export async function startFakeJudge(): Promise<FakeJudge> {
  const sockets = new Set<import("node:net").Socket>();
  let inFlight = 0;
  const fake: FakeJudge = {
    baseUrl: "",
    seen: [],
    chats: () => fake.seen.filter((r) => r.url === "/v1/chat/completions"),
    maxInFlight: 0,
    streamed: [],
    mode: () => "ok",
    latencyMs: 0,
    reset: () => {
      fake.seen.length = 0;
      fake.maxInFlight = 0;
      fake.streamed.length = 0;
      fake.latencyMs = 0;
      fake.mode = () => "ok";
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    if (req.url !== "/v1/chat/completions") {
      fake.seen.push({ url: req.url ?? "", headers: req.headers, body: { model: "", messages: [] } });
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(text) as SeenRequest["body"];
    fake.seen.push({ url: req.url, headers: req.headers, body });
    const n = fake.chats().length - 1; // counted from the test's last reset of `seen`
    inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    res.on("close", () => inFlight--);
    if (fake.latencyMs > 0) await new Promise((r) => setTimeout(r, fake.latencyMs));
    answer(fake.mode(n), body, res, (bytes) => fake.streamed.push(bytes));
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  (fake as { baseUrl: string }).baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
