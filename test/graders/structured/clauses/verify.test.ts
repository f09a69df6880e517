/** Clause verification finds what would make a clause silently wrong: a moved quote, a misspelt field or tool. */
import { describe, expect, it } from "vitest";
import { DOMAINS, loadDomainData } from "../../../../src/domains/registry.ts";
import type { Clause } from "../../../../src/graders/structured/clauses/schema.ts";
import { verifyClause } from "../../../../src/graders/structured/clauses/verify.ts";
import { DATA_DIR } from "../../../helpers/data.ts";

const QUOTE = "The maximum amount of data that can be refueled is 2GB.";
const base: Clause = {
  id: "telecom.refuel_data.test",
  effect: "require",
  tools: ["refuel_data"],
  rule: "r",
  source_quote: QUOTE,
  sources: [{ file: "main_policy.md", quote_start: 0, quote_end: 0 }],
  bind: [{ as: "line", db: "agent", table: "lines", where: { line_id: { arg: "line_id" } } }],
  when: [{ left: { ref: "line.contract_end_date" }, op: "<", right: { value: "2025-02-25" } }],
};
const data = loadDomainData(DATA_DIR, DOMAINS.telecom);
const problems = (c: Clause) =>
  verifyClause({ path: "p.json", domain: "telecom", clause: c }, data, DATA_DIR).problems.map(
    (p) => p.message,
  );

describe("verifyClause", () => {
  it("says where a quote really is when its offsets are wrong", () => {
    expect(problems(base)).toEqual([
      expect.stringMatching(/^source_quote is in main_policy\.md at \d+–\d+, not at 0–0$/),
    ]);
  });

  it("accepts the clause once the offsets are right", () => {
    const at = problems(base)[0]?.match(/at (\d+)–(\d+)/) ?? [];
    const fixed = {
      ...base,
      sources: [{ file: "main_policy.md", quote_start: Number(at[1]), quote_end: Number(at[2]) }],
    };
    expect(problems(fixed)).toEqual([]);
    expect(problems({ ...fixed, tools: ["refuel"] })).toEqual(["tool refuel is not in the telecom toolkits"]);
    expect(
      problems({ ...fixed, when: [{ left: { ref: "line.contract_end" }, op: "<", right: { value: "x" } }] }),
    ).toEqual(["reads line.contract_end, but no line record has a field contract_end"]);
    expect(
      problems({ ...fixed, when: [{ left: { arg: "amount" }, op: "<=", right: { value: 2 } }] }),
    ).toEqual(["reads argument amount, which refuel_data does not take"]);
    expect(
      problems({ ...fixed, when: [{ left: { ref: "plan.price" }, op: "<=", right: { value: 2 } }] }),
    ).toEqual(["reads plan, which nothing binds"]);
  });
});
