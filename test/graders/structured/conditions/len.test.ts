/** `{"len": …}`: how many elements a list argument or bound field holds; unknown when it is not a list. */
import { describe, expect, it } from "vitest";
import { type EvalContext, evaluate } from "../../../../src/graders/structured/conditions/evaluate.ts";
import { conditionSchema } from "../../../../src/graders/structured/conditions/schema.ts";
import type { PyDict, PyValue } from "../../../../src/py/value.ts";

const ctx = (args: PyDict): EvalContext => ({ view: null as never, args, taskPermits: false, facts: [] });
const sameCount = conditionSchema.parse({
  left: { len: { arg: "new_item_ids" } },
  op: "!=",
  right: { len: { ref: "order.item_ids" } },
});
const scope = (itemIds: PyValue): ReadonlyMap<string, PyValue> => new Map([["order", { item_ids: itemIds }]]);

describe("the len operand", () => {
  it("compares list lengths of an argument and a bound field", () => {
    expect(evaluate(sameCount, ctx({ new_item_ids: ["a"] }), scope(["x"]))).toBe(false);
    expect(evaluate(sameCount, ctx({ new_item_ids: [] }), scope(["x"]))).toBe(true);
    expect(evaluate(sameCount, ctx({ new_item_ids: ["a", "b"] }), scope(["x"]))).toBe(true);
  });

  it("is unknown for a value that is not a list, or one that is missing", () => {
    expect(evaluate(sameCount, ctx({ new_item_ids: "a" }), scope(["x"]))).toBeNull();
    expect(evaluate(sameCount, ctx({}), scope(["x"]))).toBeNull();
    expect(evaluate(sameCount, ctx({ new_item_ids: ["a"] }), scope(null))).toBeNull();
  });

  it("takes only an argument or a field to count", () => {
    expect(
      conditionSchema.safeParse({ left: { len: { value: [1] } }, op: "==", right: { value: 1 } }).success,
    ).toBe(false);
  });
});
