/**
 * tau2's NL judge over any OpenAI-compatible chat endpoint: tau2's exact request, strict reading of
 * the reply, retries, bounded concurrency across simulations and files, and a content-addressed
 * cache. Any failure makes the judgement `unknown` with its reason, counted in `stats`.
 */
import type { Simulation, Task } from "../../../formats/model.ts";
import type { JudgeRequest, NlJudge, NlJudgement } from "../nl.ts";
import { JudgmentCache, judgmentKey } from "./cache.ts";
import { DEFAULT_RETRY_POLICY, postWithRetries, type RetryPolicy } from "./client.ts";
import { limiter } from "./limiter.ts";
import { DEFAULT_JUDGE_TEMPERATURE, judgeMessages } from "./prompt.ts";
import { parseJudgeContent, replyContent } from "./reply.ts";
import { JudgeStats } from "./stats.ts";

export interface HttpJudgeConfig {
  /** e.g. `https://api.openai.com/v1` or a local server; `/chat/completions` is appended. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string | null;
  readonly temperature?: number;
  /** Request parameters tau2 does not send (e.g. `response_format`): opt-in, part of the cache key. */
  readonly params?: Readonly<Record<string, unknown>>;
  /** Judge where tau2 would not (NL_ASSERTION outside the basis), for analysis. */
  readonly all?: boolean;
  readonly concurrency?: number;
  readonly policy?: Partial<RetryPolicy>;
  readonly cache?: JudgmentCache;
  readonly fetchImpl?: typeof fetch;
  /** Replies larger than this fail unread (`MAX_REPLY_BYTES` by default). */
  readonly maxReplyBytes?: number;
  /** Progress messages (retries); stderr in the CLI. */
  readonly log?: (line: string) => void;
  /** Waits between retries (a timer unless given). */
  readonly sleep?: (ms: number) => Promise<unknown>;
}

/** Retry messages shown before the rest are only counted (a dead judge must not flood the terminal). */
const SHOWN_RETRIES = 5;

export function httpJudge(
  config: HttpJudgeConfig,
): NlJudge & { readonly stats: JudgeStats; readonly cache: JudgmentCache } {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const temperature = config.temperature ?? DEFAULT_JUDGE_TEMPERATURE;
  const params = config.params ?? {};
  const policy = { ...DEFAULT_RETRY_POLICY, ...config.policy };
  const cache = config.cache ?? new JudgmentCache();
  const stats = new JudgeStats();
  const limit = limiter(config.concurrency ?? 8);
  const inFlight = new Map<string, Promise<NlJudgement>>();

  const onRetry = (why: string, retry: number, waitMs: number) => {
    stats.retries++;
    if (stats.retries <= SHOWN_RETRIES)
      config.log?.(
        `judge: ${why}; retry ${retry} of ${policy.retries} in ${(waitMs / 1000).toFixed(1)} s${stats.retries === SHOWN_RETRIES ? " (further retries are only counted)" : ""}`,
      );
  };

  const ask = async (key: string, body: object, assertions: readonly string[]): Promise<NlJudgement> => {
    const failed = (reason: string): NlJudgement => {
      stats.fail(reason);
      return { status: "unknown", reason: `NL judge failed: ${reason}`, failed: true };
    };
    const known = cache.get(key);
    const content =
      known?.content ??
      (await (async () => {
        const res = await limit(() =>
          postWithRetries({
            url,
            apiKey: config.apiKey,
            body,
            policy,
            onRetry,
            ...(config.fetchImpl === undefined ? {} : { fetchImpl: config.fetchImpl }),
            ...(config.maxReplyBytes === undefined ? {} : { maxReplyBytes: config.maxReplyBytes }),
            ...(config.sleep === undefined ? {} : { sleep: config.sleep }),
          }),
        );
        if (!res.ok) return { failure: res.reason };
        const c = replyContent(res.payload);
        return "reason" in c ? { failure: c.reason } : c.content;
      })());
    if (typeof content !== "string") return failed(content.failure);
    const parsed = parseJudgeContent(content, assertions);
    if (!parsed.ok) return failed(parsed.reason);
    if (known === undefined) {
      stats.judged++;
      cache.put({
        key,
        base_url: config.baseUrl,
        model: config.model,
        content,
        created_at: new Date().toISOString(),
      });
    } else stats.cached++;
    if (parsed.degenerate !== null) stats.degenerate++;
    return {
      status: "judged",
      source: `http:${config.model}`,
      results: parsed.results,
      provenance: {
        model: config.model,
        cacheKey: key,
        cached: known !== undefined,
        degenerate: parsed.degenerate,
      },
    };
  };

  const start = (sim: Simulation, assertions: readonly string[]): Promise<NlJudgement> => {
    const messages = judgeMessages(sim.messages, assertions);
    const key = judgmentKey({ baseUrl: config.baseUrl, model: config.model, temperature, params, messages });
    let p = inFlight.get(key);
    if (p === undefined) {
      p = ask(key, { model: config.model, messages, temperature, ...params }, assertions);
      inFlight.set(key, p);
      // Settled requests leave the map: the cache answers repeats, and memory stays flat.
      void p.finally(() => inFlight.delete(key)).catch(() => undefined);
    }
    return p;
  };

  const pending = new WeakMap<Simulation, Promise<NlJudgement>>();
  return {
    mode: "http",
    scope: config.all === true ? "all" : "tau2",
    stats,
    cache,
    prefetch(requests: readonly JudgeRequest[]) {
      for (const r of requests) if (!pending.has(r.sim)) pending.set(r.sim, start(r.sim, r.assertions));
    },
    judge(_task: Task, sim: Simulation, assertions: readonly string[]): Promise<NlJudgement> {
      const p = pending.get(sim);
      if (p === undefined) return start(sim, assertions);
      pending.delete(sim);
      return p;
    },
  };
}
