/**
 * Edge cases of the bank-account and debit-card tools against tau2's own code: account-oracle.json
 * holds, per case, the exact result text (or its digest, on the shared db.json), how the call ended
 * (returned / TypeError / other exception) and the DB hash after each call, as produced by running
 * tau2 a2c0247's unchanged banking tools on each case's arguments (pinned values: to re-derive one,
 * call the same tool on a fresh tau2 banking_knowledge environment at that commit and record its
 * return text or exception and `get_db_hash()`; a new case needs the same). Covers odd
 * argument types, Python exception texts, float formatting, date parsing and the tau2 quirks the gold
 * vectors never reach.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { accountDiscoverableTools } from "../../../src/domains/banking_knowledge/agent-tools/accounts.ts";
import { loadBankingDb } from "../../../src/domains/banking_knowledge/schema.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { pyJsonLoads } from "../../../src/py/json-loads.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import type { PyValue } from "../../../src/py/value.ts";
import { baseKnowledgeBase } from "./fixtures.ts";
import { DATA_DIR, dispatch } from "./helpers.ts";

interface OracleCase {
  readonly name: string;
  readonly db: "fixture" | "real";
  readonly floats: boolean;
  readonly setup: readonly [string, string, string | null, string][];
  readonly calls: readonly [string, string][];
  readonly expected: readonly {
    kind: string;
    content: string | null;
    content_sha256?: string;
    hash: string;
  }[];
}

const here = dirname(fileURLToPath(import.meta.url));
const cases = JSON.parse(readFileSync(join(here, "account-oracle.json"), "utf8")) as OracleCase[];
interface ToolMeta {
  readonly name: string;
  readonly kind: string;
  readonly mutates: boolean;
  readonly params: readonly { name: string; default?: PyValue }[];
  readonly docstring: string;
}
const toolMeta = JSON.parse(readFileSync(join(here, "account-oracle-tools.json"), "utf8")) as ToolMeta[];
const fixtureBase = baseKnowledgeBase();
const realBase = loadBankingDb(DATA_DIR);
const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("account/debit tools against tau2's own code on edge cases", () => {
  it("has the cases", () => expect(cases.length).toBeGreaterThan(80));

  it.each(cases)("$name", (c) => {
    const db = DbState.of(c.db === "fixture" ? fixtureBase : realBase);
    for (const [table, id, field, valueJson] of c.setup) {
      const value = parsePyJson(valueJson);
      if (field === null) db.put(table, id, value);
      else db.mut(table, id)[field] = value;
    }
    c.calls.forEach(([name, argsJson], i) => {
      const args: PyValue = pyJsonLoads(argsJson, { parseIntAsFloat: c.floats });
      const got = dispatch(name, db, args);
      const want = c.expected[i];
      if (want === undefined) throw new Error(`${c.name}: no expectation for call ${i}`);
      const where = `${c.name} call ${i} (${name} ${argsJson})`;
      if (want.content === null)
        expect(sha256(got.content), `${where}\n${got.content}`).toBe(want.content_sha256);
      else expect(got.content, where).toBe(want.content);
      expect(got.kind, where).toBe(want.kind);
      expect(db.hash(), `${where}: DB hash`).toBe(want.hash);
    });
  });
});

describe("account/debit tool declarations match tau2's", () => {
  it("lists the same tools in tau2's source order", () => {
    expect(accountDiscoverableTools.map((t) => t.name)).toEqual(toolMeta.map((m) => m.name));
  });

  it.each(toolMeta)("$name: kind, mutates, parameters and exact __doc__", (meta) => {
    const t = accountDiscoverableTools.find((x) => x.name === meta.name);
    expect(t).toBeDefined();
    expect(t?.kind).toBe(meta.kind);
    expect(t?.mutates).toBe(meta.mutates);
    expect(t?.params).toEqual(meta.params);
    expect(t?.docstring).toBe(meta.docstring);
  });
});
