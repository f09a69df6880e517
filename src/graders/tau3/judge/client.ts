/**
 * One chat-completion request with tau2's retry budget (litellm's `num_retries`, default 3): network
 * errors, timeouts, 408, 409, 429 and 5xx are retried after an exponential backoff with jitter, or
 * after the server's `Retry-After`. Other statuses fail at once, and so does a reply larger than
 * `MAX_REPLY_BYTES` (abandoned unread past the limit). The API key is sent in a header and never
 * appears in a failure message.
 */
import { setTimeout as sleep } from "node:timers/promises";

export interface RetryPolicy {
  /** Retries after the first attempt. */
  readonly retries: number;
  /** Per-attempt timeout. */
  readonly timeoutMs: number;
  /** First backoff; it doubles per retry, up to `maxBackoffMs`, with jitter. */
  readonly baseBackoffMs: number;
  readonly maxBackoffMs: number;
  /** The longest `Retry-After` honoured (a longer one is cut to this). */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 3,
  timeoutMs: 120_000,
  baseBackoffMs: 1_000,
  maxBackoffMs: 10_000,
  maxRetryAfterMs: 60_000,
};

/** The largest reply read: a chat completion is a few KiB, so a larger one is not a judgement. */
export const MAX_REPLY_BYTES = 4 * 1024 * 1024;

export type CallResult =
  | { readonly ok: true; readonly payload: unknown; readonly attempts: number }
  | { readonly ok: false; readonly reason: string; readonly attempts: number };

const RETRYABLE = new Set([408, 409, 429]);
const retryable = (status: number) => RETRYABLE.has(status) || status >= 500;

/** `Retry-After` as milliseconds: delta seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

export const backoffMs = (policy: RetryPolicy, retry: number, random = Math.random): number => {
  const cap = Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** retry);
  return cap / 2 + (random() * cap) / 2; // "equal jitter": never shorter than half the step
};

export interface PostOptions {
  readonly url: string;
  readonly apiKey: string | null;
  readonly body: unknown;
  readonly policy: RetryPolicy;
  readonly fetchImpl?: typeof fetch;
  /** Told before each retry (a terminal should not wait in silence). */
  readonly onRetry?: (why: string, retry: number, waitMs: number) => void;
  /** `MAX_REPLY_BYTES` unless given. */
  readonly maxReplyBytes?: number;
  /** Waits between attempts (a timer unless given: tests pass one that does not wait). */
  readonly sleep?: (ms: number) => Promise<unknown>;
}

const sizeText = (bytes: number) =>
  bytes % 2 ** 20 === 0
    ? `${bytes / 2 ** 20} MiB`
    : bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;

/**
 * The body as text (decoded as `Response.text()` does), or null once it is known to exceed `limit`
 * bytes: from `Content-Length` before reading, else while reading, when the rest is cancelled.
 */
async function textWithin(res: Response, limit: number): Promise<string | null> {
  if (res.body === null) return "";
  if (Number(res.headers.get("content-length") ?? "") > limit) {
    await res.body.cancel().catch(() => undefined);
    return null;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}

export async function postWithRetries(o: PostOptions): Promise<CallResult> {
  const doFetch = o.fetchImpl ?? fetch;
  const body = JSON.stringify(o.body);
  const limit = o.maxReplyBytes ?? MAX_REPLY_BYTES;
  for (let attempt = 0; ; attempt++) {
    let why: string;
    let wait: number | null = null;
    try {
      const res = await doFetch(o.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(o.apiKey === null ? {} : { authorization: `Bearer ${o.apiKey}` }),
        },
        body,
        signal: AbortSignal.timeout(o.policy.timeoutMs),
      });
      if (res.ok) {
        const text = await textWithin(res, limit);
        // Not transient: the same request would get the same reply.
        if (text === null)
          return { ok: false, reason: `reply larger than ${sizeText(limit)}`, attempts: attempt + 1 };
        try {
          return { ok: true, payload: JSON.parse(text), attempts: attempt + 1 };
        } catch {
          // A cut-off body is a transport failure: a retry may get it whole.
          why = `HTTP ${res.status} with a body that is not JSON (${text.length} bytes)`;
        }
      } else {
        await res.body?.cancel().catch(() => undefined);
        why = `HTTP ${res.status}`;
        if (!retryable(res.status)) return { ok: false, reason: why, attempts: attempt + 1 };
        wait = retryAfterMs(res.headers.get("retry-after"));
      }
    } catch (e) {
      const err = e as Error;
      why =
        err.name === "TimeoutError"
          ? `no reply within ${o.policy.timeoutMs / 1000} s`
          : `request failed (${causeText(err)})`;
    }
    if (attempt >= o.policy.retries)
      return { ok: false, reason: `${why}, after ${attempt + 1} attempts`, attempts: attempt + 1 };
    const delay = wait === null ? backoffMs(o.policy, attempt) : Math.min(wait, o.policy.maxRetryAfterMs);
    o.onRetry?.(why, attempt + 1, delay);
    await (o.sleep ?? sleep)(delay);
  }
}

/** fetch's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND …). */
function causeText(e: Error): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? e.message;
}

/**
 * Whether anything answers at the base URL (any HTTP status will do): a typo in the host or the port
 * is then found before grading starts, not once per simulation.
 */
export async function checkReachable(
  baseUrl: string,
  timeoutMs = 10_000,
  fetchImpl: typeof fetch = fetch,
): Promise<string | null> {
  try {
    const res = await fetchImpl(`${baseUrl.replace(/\/+$/, "")}/models`, {
      method: "GET",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    return null;
  } catch (e) {
    const err = e as Error;
    return err.name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : causeText(err);
  }
}
