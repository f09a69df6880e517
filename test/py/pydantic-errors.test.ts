/**
 * pydantic's ValidationError text: the `input_value` truncation against outputs recorded from
 * pydantic-core (see `generated_by` in the fixture) and from tau2 runs in the corpus.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { pyRepr } from "../../src/py/builtins.ts";
import { parsePyJson } from "../../src/py/parse.ts";
import {
  PYDANTIC_DOCS_VERSION,
  truncatedInputRepr,
  validationErrorText,
} from "../../src/py/pydantic-errors.ts";
import type { PyDict, PyValue } from "../../src/py/value.ts";

const fixture = parsePyJson(
  readFileSync(new URL("./pydantic-input-value.oracle.json", import.meta.url), "utf8"),
) as PyDict;
const cases = fixture.cases as { input: PyValue; input_value: string }[];

describe("input_value truncation", () => {
  it("keeps a repr of up to 50 bytes", () => {
    expect(truncatedInputRepr("x".repeat(50))).toBe("x".repeat(50));
    expect(truncatedInputRepr("é".repeat(25))).toBe("é".repeat(25));
  });

  it("cuts a longer repr to 25 bytes, `...`, and the last 24 bytes", () => {
    const s = "0123456789".repeat(6);
    expect(truncatedInputRepr(s)).toBe(`${s.slice(0, 25)}...${s.slice(-24)}`);
  });

  it("counts UTF-8 bytes and never splits a character", () => {
    // 23 ASCII + '€' (bytes 23..25): the head stops before the euro sign.
    expect(truncatedInputRepr(`${"a".repeat(23)}€${"b".repeat(40)}`)).toBe(
      `${"a".repeat(23)}...${"b".repeat(24)}`,
    );
    // The tail would start inside an 'é': it starts at the next character.
    expect(truncatedInputRepr(`'${"é".repeat(30)}'`)).toBe(`'${"é".repeat(12)}...${"é".repeat(11)}'`);
  });

  it("matches tau2's recorded tool outputs", () => {
    const passenger = { first_name: "Aarav", date_of_birth: "1990-03-15", last_name: "Ahmed" };
    expect(truncatedInputRepr(pyRepr(passenger))).toBe(
      "{'first_name': 'Aarav', '...', 'last_name': 'Ahmed'}",
    );
    const payment = { id: "credit_card_9074831", source: "credit_card" };
    expect(truncatedInputRepr(pyRepr(payment))).toBe("{'id': 'credit_card_90748...'source': 'credit_card'}");
  });

  it.each(cases.map((c, i) => [i, c] as const))("matches pydantic-core, case %i", (_i, c) => {
    expect(truncatedInputRepr(pyRepr(c.input))).toBe(c.input_value);
  });
});

describe("validationErrorText", () => {
  it("lays out each issue with a truncated input and the docs link", () => {
    const input = { id: "certificate_8045380", type: "certificate" };
    const text = validationErrorText("Payment", [
      { loc: ["payment_id"], type: "missing", msg: "Field required", input },
      { loc: ["flights", 0, "date"], type: "string_type", msg: "Input should be a valid string", input: 5 },
    ]);
    expect(text).toBe(
      [
        "2 validation errors for Payment",
        "payment_id",
        "  Field required [type=missing, input_value={'id': 'certificate_80453..., 'type': 'certificate'}, input_type=dict]",
        `    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/missing`,
        "flights.0.date",
        "  Input should be a valid string [type=string_type, input_value=5, input_type=int]",
        `    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/string_type`,
      ].join("\n"),
    );
  });

  it("links the docs of pydantic 2.11", () => expect(PYDANTIC_DOCS_VERSION).toBe("2.11"));
});
