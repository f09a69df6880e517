/**
 * Banking task setups: one DB for both toolkits, `initialization_data` merged as Python values into
 * the `{table: {data: {id: record}}}` dump (tables db.json lacks start empty), and task-version
 * detection over banking's `tasks/` directory and flat `tasks.json`.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXED_QUIRKS, TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { inspectFile } from "../../../src/formats/inspect.ts";
import type { InitialState } from "../../../src/formats/model.ts";
import { listTaskSets } from "../../../src/formats/tasks.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import { type PyDict, PyFloat, pyKeys } from "../../../src/py/value.ts";
import { buildTaskSetup, deepMergePy } from "../../../src/replay/setup.ts";
import { bankingData, DATA_DIR, FLAT_TASKS_PATH, taskSetPath } from "./helpers.ts";

const initial = (agent_data: InitialState["initialization_data"]): InitialState =>
  ({ initialization_data: agent_data, initialization_actions: null, message_history: null }) as InitialState;

describe("banking task setup", () => {
  it("gives both toolkits one DB state, with or without initialization data and quirk userDbAliasing", () => {
    for (const quirks of [TAU2_QUIRKS, FIXED_QUIRKS]) {
      const plain = buildTaskSetup(bankingData(), null, quirks, new Map());
      expect(plain.user).toBe(plain.agent);
      const data = {
        agent_data: { users: { data: { u1: { name: "X" } } } },
        user_data: { referrals: { notes: "n" } },
      };
      const set = buildTaskSetup(bankingData(), initial(data), quirks, new Map());
      expect(set.user).toBe(set.agent);
      expect(set.agent.get("users", "u1")).toEqual({ name: "X" });
      expect(set.agent.base.notesOf("referrals")).toBe("n");
      const fork = set.fork();
      expect(fork.user).toBe(fork.agent);
    }
  });

  it("merges records field by field, keeps floats and ints apart, and fills tables db.json lacks", () => {
    const data = {
      agent_data: {
        accounts: { data: { "01": { current_holdings: new PyFloat(12), extra: 3 } } },
        task_config: { data: { dispute_settings: { auto_resolve_disputes: false } } },
      },
      user_data: null,
    };
    const setup = buildTaskSetup(bankingData(), initial(data), TAU2_QUIRKS, new Map());
    const account = setup.agent.get("accounts", "01") as Record<string, unknown>;
    expect(account.current_holdings).toEqual(new PyFloat(12));
    expect(account.extra).toBe(3);
    expect(account.user_id).toBe("123");
    expect(setup.agent.keys("task_config")).toEqual(["dispute_settings"]);
    // Untouched records keep the base's own (frozen, shared) objects.
    const first = bankingData().agentBase.keysOf("users")[0] as string;
    expect(setup.agent.get("users", first)).toBe((bankingData().agentBase.root.users as PyDict)[first]);
  });

  it("deepMergePy: objects merge, everything else (lists, nulls, floats) replaces", () => {
    expect(deepMergePy({ a: { b: 1, c: [1] }, d: new PyFloat(1) }, { a: { c: [2], e: null }, d: 2 })).toEqual(
      {
        a: { b: 1, c: [2], e: null },
        d: 2,
      },
    );
    expect(deepMergePy({ a: 1 }, { a: { b: new PyFloat(0.5) } })).toEqual({ a: { b: new PyFloat(0.5) } });
  });

  it("deepMergePy keeps Python's key order, integer-like ids included (existing keys first, new ones after)", () => {
    const target = parsePyJson('{"b": 1, "126": 2, "a": 3}') as PyDict;
    const update = parsePyJson('{"9": 4, "a": 5, "125": 6}') as PyDict;
    expect(pyKeys(deepMergePy(target, update) as PyDict)).toEqual(["b", "126", "a", "9", "125"]);
  });
});

describe("banking task sets", () => {
  it("lists tau2's tasks/ directory as head", () => {
    expect(listTaskSets(DATA_DIR, "banking_knowledge").map((s) => s.name)).toEqual(["head"]);
    expect(taskSetPath("head").endsWith(join("banking_knowledge", "tasks"))).toBe(true);
  });

  it("labels a run on tasks/ head, and a run on the flat tasks.json's different task_048 unknown", () => {
    const dir = mkdtempSync(join(tmpdir(), "banking-version-"));
    const fromDir = JSON.parse(readFileSync(join(taskSetPath("head"), "task_048.json"), "utf8")) as {
      id: string;
    };
    const flat = (JSON.parse(readFileSync(FLAT_TASKS_PATH, "utf8")) as { id: string }[]).find(
      (t) => t.id === "task_048",
    );
    const file = (name: string, task: unknown) => {
      const path = join(dir, name);
      const info = { environment_info: { domain_name: "banking_knowledge", policy: "" } };
      writeFileSync(path, JSON.stringify({ timestamp: null, info, tasks: [task], simulations: [] }));
      return path;
    };
    expect(inspectFile(file("dir.json", fromDir), DATA_DIR).task_version).toBe("head");
    const other = inspectFile(file("flat.json", flat), DATA_DIR);
    expect([other.task_version, other.note]).toEqual(["unknown", "closest: head (1 of 1 tasks differ)"]);
  });
});
