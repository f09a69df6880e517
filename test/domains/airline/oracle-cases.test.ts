/**
 * Edge cases replayed against outputs recorded from tau2's own AirlineTools (see `generated_by` in
 * the fixture): every call's result text (or its sha256 when long) and error flag, and the DB hash
 * after each case. Covers unusual argument types (floats, strings, None, lists), pydantic
 * coercions and errors, partial mutations, and `calculate`'s Python semantics.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { airlineDomain } from "../../../src/domains/airline/index.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { invoke } from "../../../src/domains/toolkit.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import type { PyDict, PyValue } from "../../../src/py/value.ts";
import { airlineBase } from "./data.ts";

interface OracleResult {
  error: boolean;
  content?: string;
  content_sha256?: string;
}
interface OracleCase {
  name: string;
  calls: { name: string; arguments: PyValue }[];
  results: OracleResult[];
  db_hash: string;
}

const fixture = parsePyJson(
  readFileSync(new URL("./tau2-oracle-cases.json", import.meta.url), "utf8"),
) as PyDict;
const cases = fixture.cases as unknown as OracleCase[];
// pydantic error texts link to versioned docs; the port targets another pydantic version.
const sameDocsVersion = (s: string) =>
  s.replace(/errors\.pydantic\.dev\/\d+\.\d+\//g, "errors.pydantic.dev/X/");
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("airline tools against tau2's recorded outputs", () => {
  const initial = DbState.of(airlineBase());
  it("has cases", () => expect(cases.length).toBeGreaterThan(100));

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const state = initial.fork();
    c.calls.forEach((call, i) => {
      const tool = airlineDomain.agentTools.tools.get(call.name);
      expect(tool, call.name).toBeDefined();
      const out = invoke("AirlineTools", tool!, state, call.arguments, {
        shared: new Map(),
        quirks: TAU2_QUIRKS,
      });
      const expected = c.results[i] as OracleResult;
      expect(out.error, `call ${i} error flag`).toBe(expected.error);
      expect(out.internal, `call ${i} is a Python-level outcome`).toBeUndefined();
      if (expected.content !== undefined) {
        expect(sameDocsVersion(out.content), `call ${i}`).toBe(sameDocsVersion(expected.content));
      } else {
        expect(sha256(sameDocsVersion(out.content)), `call ${i} content sha256`).toBe(
          expected.content_sha256,
        );
      }
    });
    expect(state.hash()).toBe(c.db_hash);
  });
});
