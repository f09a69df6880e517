import { describe, expect, it } from "vitest";
import { newToken, refusalOf } from "../../src/view/access.ts";

const TOKEN = "t0ken-of-this-server";
const ok = { method: "GET", host: "127.0.0.1:4000", origin: null, fetchSite: null, token: TOKEN };

describe("refusalOf", () => {
  it("serves this server's host with the token", () => {
    expect(refusalOf(ok, TOKEN, 4000)).toBeNull();
    expect(refusalOf({ ...ok, host: "localhost:4000" }, TOKEN, 4000)).toBeNull();
  });

  it("refuses a missing or wrong token with 401", () => {
    expect(refusalOf({ ...ok, token: null }, TOKEN, 4000)?.status).toBe(401);
    expect(refusalOf({ ...ok, token: `${TOKEN}x` }, TOKEN, 4000)?.status).toBe(401);
    expect(refusalOf({ ...ok, token: "" }, TOKEN, 4000)?.status).toBe(401);
  });

  it("refuses a foreign Host (DNS rebinding) and another port", () => {
    expect(refusalOf({ ...ok, host: "evil.example:4000" }, TOKEN, 4000)).toMatchObject({ status: 403 });
    expect(refusalOf({ ...ok, host: "127.0.0.1:4001" }, TOKEN, 4000)?.status).toBe(403);
    expect(refusalOf({ ...ok, host: null }, TOKEN, 4000)?.status).toBe(403);
  });

  it("refuses a foreign Origin even with the token", () => {
    expect(refusalOf({ ...ok, origin: "http://evil.example" }, TOKEN, 4000)?.status).toBe(403);
    expect(refusalOf({ ...ok, origin: "http://127.0.0.1:4000" }, TOKEN, 4000)).toBeNull();
  });

  it("takes a write only from the server's own pages", () => {
    const post = { ...ok, method: "POST" };
    expect(refusalOf(post, TOKEN, 4000)?.status).toBe(403);
    expect(refusalOf({ ...post, origin: "http://localhost:4000" }, TOKEN, 4000)).toBeNull();
    expect(refusalOf({ ...post, fetchSite: "same-origin" }, TOKEN, 4000)).toBeNull();
    expect(refusalOf({ ...post, fetchSite: "cross-site" }, TOKEN, 4000)?.status).toBe(403);
  });

  it("makes a new unguessable token each time", () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(a);
  });
});
