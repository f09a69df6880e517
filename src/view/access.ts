/**
 * Who may talk to `tau-rescore view`: the browser of the person who started it. The server binds
 * 127.0.0.1 only and prints a URL with a random token; every request must carry that token (in the URL,
 * or in the cookie the first page sets), name this server in `Host` (a page of another site reaching
 * 127.0.0.1 through DNS rebinding names its own) and, when the browser sends an `Origin`, come from this
 * server's pages. A write also needs `Origin` or `Sec-Fetch-Site: same-origin`, so a form on another site
 * cannot post a review.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";

export const TOKEN_PARAM = "token";
export const TOKEN_COOKIE = "tau_rescore_view";

/** 32 random bytes, URL-safe. */
export const newToken = (): string => randomBytes(32).toString("base64url");

export interface RequestFacts {
  readonly method: string;
  readonly host: string | null;
  readonly origin: string | null;
  readonly fetchSite: string | null;
  /** The token from the URL, else from the cookie. */
  readonly token: string | null;
}

export type Refusal = { readonly status: 401 | 403; readonly reason: string };

const sameToken = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The hosts this server answers to on `port`. */
export const allowedHosts = (port: number): readonly string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

/** Null when the request may be served; else the status and a one-line reason. */
export function refusalOf(r: RequestFacts, token: string, port: number): Refusal | null {
  const hosts = allowedHosts(port);
  if (r.host === null || !hosts.includes(r.host.toLowerCase()))
    return {
      status: 403,
      reason: `foreign Host ${JSON.stringify(r.host)}: this server answers ${hosts.join(" or ")} only`,
    };
  if (r.origin !== null && !hosts.some((h) => r.origin?.toLowerCase() === `http://${h}`))
    return { status: 403, reason: `foreign Origin ${JSON.stringify(r.origin)}` };
  const writes = r.method !== "GET" && r.method !== "HEAD";
  if (writes && r.origin === null && r.fetchSite !== "same-origin")
    return { status: 403, reason: "a write must come from this server's own pages (no Origin)" };
  if (r.token === null || !sameToken(r.token, token))
    return { status: 401, reason: "missing or wrong token: open the URL `tau-rescore view` printed" };
  return null;
}
