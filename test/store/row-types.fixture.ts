/**
 * Compiled by `store.test.ts` with the project's compiler options: every `@ts-expect-error` below must
 * be an error (a wrongly built row does not compile), and the last row must compile.
 */
import type { RowOf } from "../../src/store/schema.ts";

// @ts-expect-error a missing column
export const missing: RowOf<"errors"> = { run_id: "r", file_id: "f", sim_key: "s", stage: "load" };

export const wrongType: RowOf<"errors"> = {
  run_id: "r",
  file_id: "f",
  sim_key: "s",
  stage: "load",
  // @ts-expect-error a number in a VARCHAR column
  message: 1,
};

export const nullInRequired: RowOf<"causes"> = {
  run_id: "r",
  sim_key: "s",
  grader: "g",
  seq: 0,
  kind: "requirement",
  reference: "x",
  // @ts-expect-error NULL in a NOT NULL column
  gates: null,
  message: "m",
  message_index: null,
  turn_idx: null,
  tool_call_id: null,
  tool_name: null,
  actor: null,
};

export const misspelt: RowOf<"errors"> = {
  run_id: "r",
  file_id: "f",
  sim_key: "s",
  stage: "load",
  message: "m",
  // @ts-expect-error a column the table does not have
  messages: "m",
};

// @ts-expect-error a positional row (the old shape) is not a row
export const positional: RowOf<"errors"> = ["r", "f", "s", "load", "m"];

export const fine: RowOf<"errors"> = { run_id: "r", file_id: "f", sim_key: "s", stage: "load", message: "m" };
