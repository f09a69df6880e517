import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DbAttributeError, DbBase, DbState } from "../../src/domains/db-state.ts";
import { canonicalJson, sha256Hex } from "../../src/py/json.ts";
import { type PyDict, PyFloat } from "../../src/py/value.ts";

const base = () =>
  new DbBase(
    "TestDB",
    { users: "dict", lines: "list", device: "atom" },
    {
      users: { u1: { name: "Ann", balance: new PyFloat(10) }, u2: { name: "Bob", balance: new PyFloat(0) } },
      lines: [{ id: "L1", status: "Active" }],
      device: { on: true },
    },
  );

describe("DbState", () => {
  it("hashes exactly the canonical text of the materialised DB", () => {
    const s = DbState.of(base());
    expect(s.hash()).toBe(sha256Hex(canonicalJson(s.dump())));
    expect(s.canonical()).toBe(
      '{"device": {"on": true}, "lines": [{"id": "L1", "status": "Active"}], "users": {"u1": {"balance": 10.0, "name": "Ann"}, "u2": {"balance": 0.0, "name": "Bob"}}}',
    );
  });

  it("copies on write: a fork never changes its parent or the frozen base", () => {
    const b = base();
    const parent = DbState.of(b);
    const child = parent.fork();
    child.mut("users", "u1").name = "Zed";
    child.mutAt("lines", 0).status = "Suspended";
    child.push("lines", { id: "L2", status: "Active" });
    child.put("users", "u3", { name: "Cy", balance: new PyFloat(1) });
    expect((parent.get("users", "u1") as PyDict).name).toBe("Ann");
    expect(parent.length("lines")).toBe(1);
    expect(child.keys("users")).toEqual(["u1", "u2", "u3"]);
    expect(() => {
      (b.root.users as PyDict).u1 = null;
    }).toThrow(TypeError);
  });

  it("decides equality from touched units only, and agrees with the hash", () => {
    const root = DbState.of(base());
    const a = root.fork();
    const c = root.fork();
    a.mut("users", "u1").balance = new PyFloat(5);
    c.mut("users", "u1").balance = new PyFloat(5);
    expect(a.sameAs(c)).toBe(true);
    expect(a.hash()).toBe(c.hash());
    c.mut("users", "u1").balance = 5; // an int where a float was: a different DB for tau2
    expect(a.sameAs(c)).toBe(false);
    expect(a.hash()).not.toBe(c.hash());
    expect(a.differingUnits(c)).toEqual(["users\u0000u1"]);
  });

  it("a write that restores the original value leaves the state equal", () => {
    const root = DbState.of(base());
    const a = root.fork();
    a.mut("users", "u2").name = "Bob";
    expect(a.sameAs(root.fork())).toBe(true);
  });

  it("raises Python's AttributeError text for a field the DB class lacks", () => {
    const s = DbState.of(base());
    expect(() => s.get("notifications", "n1")).toThrow(DbAttributeError);
    expect(() => s.get("notifications", "n1")).toThrow("'TestDB' object has no attribute 'notifications'");
  });

  it("compares only what either wrote since their common ancestor, and agrees with the hash", () => {
    // A tree of forks: every state written a little, then written no more once forked (the contract).
    const write = fc.tuple(fc.constantFrom("u1", "u2", "u3"), fc.constantFrom("Ann", "Bob", 1, 2));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(), fc.array(write, { maxLength: 3 })), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.nat(),
        (plan, i, j) => {
          const states = [DbState.of(base())];
          for (const [parent, writes] of plan) {
            const s = (states[parent % states.length] as DbState).fork();
            for (const [key, name] of writes) {
              if (s.has("users", key)) s.mut("users", key).name = name;
              else s.put("users", key, { name });
            }
            states.push(s);
          }
          const a = states[i % states.length] as DbState;
          const b = states[j % states.length] as DbState;
          const all = new Set([...a.touchedUnits(), ...b.touchedUnits()]);
          const expected = [...all].filter(
            (u) =>
              canonicalJson(a.unitValue(u) ?? null) !== canonicalJson(b.unitValue(u) ?? null) ||
              (a.unitValue(u) === undefined) !== (b.unitValue(u) === undefined),
          );
          expect(a.differingUnits(b).sort()).toEqual(expected.sort());
          expect(a.sameAs(b)).toBe(a.hash() === b.hash());
        },
      ),
      { numRuns: 2000 },
    );
  });
});
