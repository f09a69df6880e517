import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DbAttributeError, DbBase, DbState } from "../../src/domains/db-state.ts";
import { canonicalJson, sha256Hex } from "../../src/py/json.ts";
import { type PyDict, PyFloat } from "../../src/py/value.ts";
import { WriteJournal } from "../../src/replay/journal.ts";
import { agentCall } from "../helpers/journal.ts";

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

  it("reads every kind of write through the layers above it (reads of unwritten fields skip the layers)", () => {
    const root = DbState.of(base());
    const parent = root.fork();
    parent.remove("users", "u2");
    parent.write("device", { on: false });
    parent.push("lines", { id: "L2", status: "Active" });
    const child = parent.fork();
    child.put("users", "u2", { name: "Bo", balance: new PyFloat(3) });
    const grandchild = child.fork();
    // Each layer sees its own and its parents' writes, never its children's.
    expect(parent.get("users", "u2")).toBeUndefined();
    expect(parent.has("users", "u2")).toBe(false);
    expect(parent.keys("users")).toEqual(["u1"]);
    expect(parent.values("users")).toEqual([{ name: "Ann", balance: new PyFloat(10) }]);
    expect(grandchild.get("users", "u2")).toEqual({ name: "Bo", balance: new PyFloat(3) });
    expect(grandchild.keys("users")).toEqual(["u1", "u2"]);
    expect(grandchild.read("device")).toEqual({ on: false });
    expect(grandchild.length("lines")).toBe(2);
    expect(grandchild.at("lines", 1)).toEqual({ id: "L2", status: "Active" });
    expect(root.read("device")).toEqual({ on: true });
    expect(root.length("lines")).toBe(1);
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

  describe("mutPath", () => {
    const nested = () =>
      new DbBase(
        "NestDB",
        { users: "dict" },
        {
          users: {
            u1: { name: "Ann", prefs: { a: { x: 1 }, b: { x: 2 } } },
            u2: { name: "Bob", prefs: { a: { x: 3 }, b: { x: 4 } } },
          },
        },
      );
    const prefs = (s: DbState, user: string) =>
      (s.get("users", user) as { prefs: Record<string, PyDict> }).prefs;

    it("copies only the dicts on the path: the rest stays the base's own objects", () => {
      const b = nested();
      const s = DbState.of(b).fork();
      s.mutPath("users", "u1", ["prefs", "a"]).x = 9;
      const before = (b.root.users as Record<string, { prefs: Record<string, PyDict> }>).u1?.prefs;
      expect(prefs(s, "u1").a).toEqual({ x: 9 });
      expect(before?.a).toEqual({ x: 1 });
      expect(prefs(s, "u1").b).toBe(before?.b);
      expect(s.differingUnits(DbState.of(b).fork())).toEqual(["users\u0000u1"]);
    });

    it("after mutPath, mut hands out a record whose every container is this layer's own", () => {
      const parent = DbState.of(nested()).fork();
      parent.mutPath("users", "u1", ["prefs", "a"]).x = 9;
      const child = parent.fork();
      child.mutPath("users", "u1", ["prefs", "a"]).x = 10;
      const whole = child.mut("users", "u1").prefs as Record<string, PyDict>;
      (whole.b as PyDict).x = 0; // b was still the base's (frozen) object
      (whole.a as PyDict).x = 11; // a was the child's own copy
      expect(prefs(parent, "u1")).toEqual({ a: { x: 9 }, b: { x: 2 } });
      expect(prefs(child, "u1")).toEqual({ a: { x: 11 }, b: { x: 0 } });
    });

    it("refuses a path through something that is not a dict", () => {
      const s = DbState.of(nested()).fork();
      expect(() => s.mutPath("users", "u1", ["name"])).toThrow("users[u1]: name is not a dict");
      expect(() => s.mutPath("users", "u9", ["prefs"])).toThrow("users[u9] does not exist");
    });

    it("journals the value before each step, not the one a later step writes in place", () => {
      const s = DbState.of(nested()).fork();
      const journal = new WriteJournal();
      journal.attach(s, null);
      for (const [i, x] of [5, 7].entries()) {
        journal.begin(agentCall(i, i));
        s.mutPath("users", "u1", ["prefs", "a"]).x = x;
      }
      const befores = journal.entries.map((e) => (e.before as { prefs: PyDict }).prefs.a);
      expect(befores).toEqual([{ x: 1 }, { x: 5 }]);
    });

    it("agrees with deep-copy writes on any sequence of forks and writes", () => {
      const write = fc.tuple(
        fc.boolean(),
        fc.constantFrom("u1", "u2"),
        fc.constantFrom("a", "b"),
        fc.integer({ min: 0, max: 3 }),
      );
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(), fc.array(write, { maxLength: 4 })), { minLength: 1, maxLength: 6 }),
          (plan) => {
            const b = nested();
            const states = [DbState.of(b)];
            const models = [
              structuredClone(b.root) as Record<string, Record<string, { prefs: Record<string, PyDict> }>>,
            ];
            for (const [from, writes] of plan) {
              const at = from % states.length;
              const s = (states[at] as DbState).fork();
              const model = structuredClone(models[at]) as (typeof models)[number];
              for (const [byPath, user, pref, x] of writes) {
                if (byPath) s.mutPath("users", user, ["prefs", pref]).x = x;
                else ((s.mut("users", user).prefs as Record<string, PyDict>)[pref] as PyDict).x = x;
                (model.users?.[user]?.prefs[pref] as PyDict).x = x;
              }
              states.push(s);
              models.push(model);
            }
            // Every state, parents included, still reads what its own writes made it.
            for (const [i, s] of states.entries())
              expect(s.canonical()).toBe(canonicalJson(models[i] as PyDict));
          },
        ),
        { numRuns: 1000 },
      );
    });
  });
});
