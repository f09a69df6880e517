/**
 * Task facts are verified like rules: a quote verbatim in its field, a name and type the domain's
 * vocabulary knows, an enum value it lists, one fact per name, a number fact's value written in its quote;
 * a charge cap reads a verified number fact.
 * `requirements scan --facts` proposes the sentences, and coverage counts them against facts and reviews.
 */
import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../../../src/domains/registry.ts";
import type { Task } from "../../../../src/formats/model.ts";
import { verifyRequirementSet } from "../../../../src/graders/structured/requirements/check-all.ts";
import { coverageReport } from "../../../../src/graders/structured/requirements/coverage.ts";
import { loadRequirements } from "../../../../src/graders/structured/requirements/load.ts";
import { factCuesIn, scanTask } from "../../../../src/graders/structured/requirements/scan.ts";
import {
  type FactVocabulary,
  requirementFixtureSchema,
} from "../../../../src/graders/structured/requirements/schema.ts";
import { verifyFixture } from "../../../../src/graders/structured/requirements/verify.ts";
import { DATA_DIR } from "../../../helpers/data.ts";
import { taskOf } from "../clauses/harness.ts";
import { tempRequirements } from "./helpers.ts";

const VOCABULARY: FactVocabulary = {
  cancellation_reason: { type: "enum", values: ["health", "change_of_plan"], about: "why" },
  max_charge: { type: "number", about: "a budget" },
};

const BUDGET = "If the total cost for this exact combination of changes exceeds your $200 budget";
const cap = {
  id: "airline.34.budget",
  rule: "At most $200 in all.",
  cap: { fact: "max_charge" },
  tools: null,
};

function fixture34(facts: unknown[], caps: unknown[] = []) {
  return requirementFixtureSchema.parse({
    domain: "airline",
    task_version: "head",
    task_id: "34",
    user_preflight_requirements: { action_preconditions: [], charge_caps: caps },
    task_facts: facts,
  });
}
const fact = (over: Record<string, unknown> = {}) => ({
  id: "airline.34.max_charge",
  name: "max_charge",
  type: "number",
  value: 200,
  source_field: "task_instructions",
  source_quote: BUDGET,
  ...over,
});
const verify = (f: ReturnType<typeof fixture34>) =>
  verifyFixture("34.json", f, taskOf("airline", "head", "34"), DOMAINS.airline, VOCABULARY);
const messages = (v: ReturnType<typeof verify>) => v.problems.map((p) => `${p.ruleId}: ${p.message}`);

describe("verifying task facts", () => {
  it("a fact quoted verbatim, of a known name and type, verifies with its quote's offsets; its cap with it", () => {
    const v = verify(fixture34([fact()], [cap]));
    expect(messages(v)).toEqual([]);
    expect(v.facts.map((f) => [f.fact.name, f.fact.value])).toEqual([["max_charge", 200]]);
    const text = taskOf("airline", "head", "34").user_scenario.instructions;
    const field = typeof text === "string" ? text : (text.task_instructions ?? "");
    expect([...field].slice(v.facts[0]?.quoteStart, v.facts[0]?.quoteEnd).join("")).toBe(BUDGET);
    expect(v.caps.map((c) => c.cap.id)).toEqual(["airline.34.budget"]);
  });

  it("a quote not in the task, an unknown name, a type or enum value the vocabulary does not know: each rejected", () => {
    expect(
      messages(
        verify(fixture34([fact({ value: 300, source_quote: "your $300 budget, cancel everything" })])),
      ),
    ).toEqual([
      expect.stringMatching(/^airline\.34\.max_charge: source_quote not found verbatim in task_instructions/),
    ]);
    expect(messages(verify(fixture34([fact({ name: "budget" })])))).toEqual([
      expect.stringContaining("fact budget is not in the airline fact vocabulary"),
    ]);
    expect(
      messages(verify(fixture34([fact({ name: "cancellation_reason", type: "enum", value: "boredom" })]))),
    ).toEqual([
      expect.stringContaining('"boredom" is not a value of cancellation_reason (health, change_of_plan)'),
    ]);
    expect(messages(verify(fixture34([fact({ name: "cancellation_reason" })])))).toEqual([
      expect.stringContaining("fact cancellation_reason is a enum, not a number"),
    ]);
    expect(messages(verify(fixture34([fact(), fact({ id: "airline.34.again" })])))).toEqual([
      expect.stringContaining("a second fact named max_charge"),
    ]);
  });

  it("a rejected fact states nothing, and a cap reading it or no fact at all does not grade", () => {
    const bad = verify(fixture34([fact({ source_quote: "your $300 budget, cancel everything" })], [cap]));
    expect(bad.facts).toEqual([]);
    expect(bad.caps).toEqual([]);
    const none = verify(
      fixture34(
        [fact({ name: "cancellation_reason", type: "enum", value: "health", source_quote: BUDGET })],
        [cap],
      ),
    );
    expect(none.caps).toEqual([]);
    expect(messages(none)).toContainEqual(
      expect.stringContaining("the cap reads fact max_charge, which the fixture does not state"),
    );
  });

  it("a number fact's value is written in its quote: as a number token, $ and thousands commas aside", () => {
    const cases: [value: number, quote: string, written: boolean][] = [
      [200, "exceeds your $200 budget", true],
      [200, "a fee of 200.00 dollars at most", true],
      [1200, "up to $1,200 for both tickets", true],
      [1200, "up to $1200 for both tickets", true],
      [1200, "up to 1,200.00 for both tickets", true],
      [12.5, "a fee of $12.50 is fine", true],
      [200, "up to $2000 for the change", false],
      [200, "up to $2,000 for the change", false],
      [1e308, "exceeds your $200 budget", false],
      [308, "a budget of 1e308 dollars", false],
      [320, "rebook me on an A320 flight", false],
      [2, "a 2.5GB data plan at most", false],
      [1, "a fee of $1,200a at most", false],
      [650, "up to $650. No more than that", true],
      [200, "up to $1,200 for both tickets", false],
    ];
    const task34 = taskOf("airline", "head", "34");
    const instructions = task34.user_scenario.instructions;
    if (typeof instructions === "string") throw new Error("task 34 has structured instructions");
    // One task whose instructions hold every quote, so each is verbatim in it.
    const task: Task = {
      ...task34,
      user_scenario: {
        ...task34.user_scenario,
        instructions: { ...instructions, task_instructions: cases.map(([, q]) => q).join(". ") },
      },
    };
    for (const [value, quote, written] of cases) {
      const v = verifyFixture(
        "34.json",
        fixture34([fact({ value, source_quote: quote })]),
        task,
        DOMAINS.airline,
        VOCABULARY,
      );
      expect(messages(v), `${value} in ${JSON.stringify(quote)}`).toEqual(
        written
          ? []
          : [
              expect.stringMatching(
                /^airline\.34\.max_charge: task_facts\[0\]\.value: .* is not written in its source_quote/,
              ),
            ],
      );
    }
  });

  it("requirements verify names the file and the path of a number its quote does not write", () => {
    const raw = (value: number) => ({
      domain: "airline",
      task_version: "head",
      task_id: "34",
      user_preflight_requirements: { action_preconditions: [] },
      task_facts: [fact({ value })],
    });
    const verifySet = (value: number) =>
      verifyRequirementSet({
        dir: tempRequirements({ "airline/_facts.json": VOCABULARY, "airline/head/34.json": raw(value) }),
        dataDir: DATA_DIR,
      });
    expect(verifySet(1e308).problems).toEqual([
      {
        fixture: expect.stringMatching(/airline\/head\/34\.json$/),
        ruleId: "airline.34.max_charge",
        message: "task_facts[0].value: 1e+308 is not written in its source_quote (it writes 200)",
      },
    ]);
    expect(verifySet(200).problems).toEqual([]);
  });

  it("the schema refuses a number fact with a text value, and a fixture with nothing in it", () => {
    expect(() => fixture34([fact({ value: "200" })])).toThrow(/a number fact's value is a number/);
    expect(() => fixture34([])).toThrow(/a fixture needs a rule or a fact/);
  });

  it("the repo's vocabulary and facts verify (requirements verify checks them with the rules)", () => {
    const set = loadRequirements("requirements");
    expect(set.problems).toEqual([]);
    expect(Object.keys(set.vocabulary("airline")).sort()).toEqual(["cancellation_reason", "max_charge"]);
    expect(set.find("airline", "head", "39")?.fixture.task_facts.map((f) => f.value)).toEqual([
      "change_of_plan",
    ]);
  });
});

describe("fact candidates", () => {
  it("marks amounts, budgets, reasons and booking times; not a plain request", () => {
    expect(factCuesIn(BUDGET)).toEqual(["amount", "budget"]);
    expect(factCuesIn("You are sick.")).toEqual(["reason"]);
    expect(factCuesIn("You booked the flight this morning by mistake and you want to cancel it.")).toEqual([
      "reason",
      "booking time",
    ]);
    expect(factCuesIn("You want to change your flight to a nonstop one.")).toEqual([]);
  });

  it("scans a task's text for them, and coverage counts facts and reviewed non-facts apart from rules", () => {
    const found = scanTask(taskOf("airline", "head", "34"), DOMAINS.airline, "head", "facts");
    expect(found.map((c) => c.sentence)).toContain(
      `${BUDGET}, cancel the entire request - do not accept partial changes, alternatives, or downgrades like economy class.`,
    );
    const dir = tempRequirements({
      "airline/_facts.json": VOCABULARY,
      "airline/head/34.json": fixture34([fact()]),
    });
    const row = coverageReport(DATA_DIR, dir, [DOMAINS.airline], "facts").rows.find(
      (r) => r.task_version === "head",
    );
    expect(row?.rules).toBe(1);
    expect(row?.covered).toBe(1);
    expect(row?.unreviewed).toBe((row?.candidates ?? 0) - 1);
  });
});
