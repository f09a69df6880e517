/**
 * The view of the DB before a replayed step: `recordsWhere` (index lookups, touched records read one by
 * one) must list exactly what filtering `records` lists, in the same order, at every step.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DbBase, DbState } from "../../../../src/domains/db-state.ts";
import { viewBefore } from "../../../../src/graders/structured/conditions/history.ts";
import type { PyDict, PyValue } from "../../../../src/py/value.ts";
import { WriteJournal } from "../../../../src/replay/journal.ts";
import { agentCall } from "../../../helpers/journal.ts";

const KEYS = ["a", "b", "c", "d", "7", "12"];
const COLOURS = ["red", "blue"];

const record = fc.record({ colour: fc.constantFrom(...COLOURS, 5), n: fc.nat(3) });
type Op =
  | { readonly kind: "put"; readonly key: string; readonly value: PyDict }
  | { readonly kind: "mut"; readonly key: string; readonly colour: PyValue }
  | { readonly kind: "remove"; readonly key: string };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("put" as const), key: fc.constantFrom(...KEYS, "x", "9"), value: record }),
  fc.record({
    kind: fc.constant("mut" as const),
    key: fc.constantFrom(...KEYS),
    colour: fc.constantFrom(...COLOURS),
  }),
  fc.record({ kind: fc.constant("remove" as const), key: fc.constantFrom(...KEYS, "x") }),
);

function apply(s: DbState, o: Op): void {
  if (o.kind === "put") s.put("things", o.key, o.value);
  else if (o.kind === "remove") s.remove("things", o.key);
  else if (s.has("things", o.key)) s.mut("things", o.key).colour = o.colour;
}

describe("viewBefore.recordsWhere", () => {
  it("equals filtering records() at every step, order included (setup writes, adds, removals)", () => {
    fc.assert(
      fc.property(
        fc.subarray(KEYS, { minLength: 1 }),
        fc.array(record, { minLength: KEYS.length, maxLength: KEYS.length }),
        fc.array(op, { maxLength: 3 }),
        fc.array(fc.array(op, { maxLength: 3 }), { maxLength: 4 }),
        (keys, records, setupOps, steps) => {
          const root: PyDict = { things: Object.fromEntries(keys.map((k, i) => [k, records[i] as PyDict])) };
          const setup = DbState.of(new DbBase("T", { things: "dict" }, root)).fork();
          for (const o of setupOps) apply(setup, o); // written before the replay: not in the journal
          const predicted = setup.fork();
          const journal = new WriteJournal();
          const detach = journal.attach(predicted, null);
          steps.forEach((ops, i) => {
            journal.begin(agentCall(i));
            for (const o of ops) apply(predicted, o);
          });
          detach();
          const final = { agent: predicted, user: null };
          for (let step = 0; step <= steps.length; step++) {
            for (const colour of COLOURS) {
              const expected = (viewBefore(journal, final, step).records("agent", "things") ?? []).filter(
                (r) => (r as PyDict).colour === colour,
              );
              expect(
                viewBefore(journal, final, step).recordsWhere("agent", "things", "colour", colour),
              ).toEqual(expected);
            }
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
