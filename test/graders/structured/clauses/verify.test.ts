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

describe("verifyClause: knowledge-base documents and included prompt components (banking)", () => {
  const banking = loadDomainData(DATA_DIR, DOMAINS.banking_knowledge);
  const DOC = "doc_credit_cards_credit_card_account_logistics_002";
  const KB_QUOTE = "Outstanding balance must be $0.00 dollars";
  const kbClause: Clause = {
    id: "banking_knowledge.close_credit_card_account.test",
    effect: "prohibit",
    tools: ["close_credit_card_account_7834"],
    rule: "r",
    source_quote: KB_QUOTE,
    sources: [{ document: DOC, quote_start: 0, quote_end: 0 }],
    bind: [
      {
        as: "card_account",
        db: "agent",
        table: "credit_card_accounts",
        where: { account_id: { arg: "credit_card_account_id" } },
      },
    ],
    when: [{ left: { ref: "card_account.current_balance" }, op: "!=", right: { value: "$0.00" } }],
  };
  const check = (c: Clause, data = banking, domain = "banking_knowledge") =>
    verifyClause({ path: "p.json", domain, clause: c }, data, DATA_DIR);
  const messages = (c: Clause) => check(c).problems.map((p) => p.message);

  it("locates a quote in a document's content, in code points, and says where it really is", () => {
    expect(messages(kbClause)).toEqual([
      `source_quote is in the content of KB document ${DOC} at 193–234, not at 0–0`,
    ]);
    const fixed = { ...kbClause, sources: [{ document: DOC, quote_start: 193, quote_end: 234 }] };
    const verified = check(fixed).clause;
    expect(verified?.files).toEqual([]);
    // A knowledge-base document is every banking agent's, whatever its policy file.
    expect(verified?.allAgents).toBe(true);
  });

  it("names the closest text when the quote is not verbatim, and unknown documents", () => {
    const typo = { ...kbClause, source_quote: "Outstanding balance must be $0.00 dollar." };
    expect(messages({ ...typo, sources: [{ document: DOC, quote_start: 193, quote_end: 234 }] })).toEqual([
      `source_quote not found verbatim in the content of KB document ${DOC}; closest text: "Outstanding balance must be $0.00 dollars"`,
    ]);
    expect(
      messages({ ...kbClause, sources: [{ document: "doc_missing", quote_start: 0, quote_end: 1 }] }),
    ).toEqual([
      expect.stringMatching(/^KB document doc_missing is not in the knowledge base \(.*documents\)$/),
    ]);
  });

  it("a domain without a knowledge base cannot name a document", () => {
    const c = {
      ...base,
      id: "telecom.refuel_data.kb",
      sources: [{ document: DOC, quote_start: 0, quote_end: 1 }],
    };
    expect(problems(c)).toEqual([`telecom has no knowledge base, so no source can be document ${DOC}`]);
  });

  it("a quote in an included prompt component governs every agent; the policy header's own clauses too", () => {
    const quote = "After verification, you must call the verification logging tool";
    const included = {
      ...kbClause,
      source_quote: quote,
      sources: [
        { file: "prompts/components/additional_instructions.md", quote_start: 3621, quote_end: 3684 },
      ],
    };
    const v = check(included).clause;
    expect(v?.files).toEqual(["prompts/components/additional_instructions.md"]);
    expect(v?.allAgents).toBe(true);
    // Telecom's clauses govern only the agents whose policy file they quote.
    const at = problems(base)[0]?.match(/at (\d+)–(\d+)/) ?? [];
    const telecom = {
      ...base,
      sources: [{ file: "main_policy.md", quote_start: Number(at[1]), quote_end: Number(at[2]) }],
    };
    expect(
      verifyClause({ path: "p.json", domain: "telecom", clause: telecom }, data, DATA_DIR).clause?.allAgents,
    ).toBe(false);
  });

  it("accepts fields banking's tools write that no loaded record has, and still rejects typos", () => {
    const fixed = { ...kbClause, sources: [{ document: DOC, quote_start: 193, quote_end: 234 }] };
    const closedBy = { left: { ref: "card_account.closed_by" }, op: "==" as const, right: { value: "x" } };
    expect(messages({ ...fixed, when: [closedBy] })).toEqual([]);
    const typo = { ...closedBy, left: { ref: "card_account.closed_byy" } };
    expect(messages({ ...fixed, when: [typo] })).toEqual([
      "reads card_account.closed_byy, but no card_account record has a field closed_byy",
    ]);
  });
});
