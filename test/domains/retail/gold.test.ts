/**
 * Gold replays against the oracle's reference vectors: every retail task's gold actions run on a
 * fork of the initial DB must give tau2's outcome per action and tau2's final DB hash.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { retailDomain } from "../../../src/domains/retail/index.ts";
import { invoke, type ToolEnv } from "../../../src/domains/toolkit.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import type { PyDict, PyValue } from "../../../src/py/value.ts";
import { dataDir, referenceVectors } from "./data.ts";

interface GoldAction {
  name: string;
  arguments: PyValue;
  requestor?: string | null;
}

function goldActions(task: PyDict): GoldAction[] {
  const criteria = task.evaluation_criteria as PyDict | null;
  return ((criteria?.actions ?? []) as PyDict[]).map((a) => ({
    name: a.name as string,
    arguments: a.arguments as PyValue,
    requestor: a.requestor as string | null,
  }));
}

const TASK_FILES = [
  ["head", join("domains", "retail", "tasks.json")],
  ["v0.2.0", join("versions", "v0.2.0_f8de30c", "domains", "retail", "tasks.json")],
] as const;

describe("retail gold replays", () => {
  let initial: DbState;
  const env: ToolEnv = { shared: new Map(), quirks: TAU2_QUIRKS };

  beforeAll(() => {
    initial = DbState.of(retailDomain.loadAgentDb(dataDir));
  });

  it("loads the DB with tau2's initial hash", () => {
    expect(initial.hash()).toBe(referenceVectors().initial_db_hashes.retail?.agent);
    expect(initial.hash()).toBe("b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c");
  });

  for (const [version, file] of TASK_FILES) {
    const tasks = parsePyJson(readFileSync(join(dataDir, file), "utf8")) as PyDict[];

    it(`${version}: has a vector for each of the ${tasks.length} tasks`, () => {
      expect(tasks.length).toBe(114);
      for (const t of tasks) expect(referenceVectors().gold[`${version}/retail/${t.id}`]).toBeDefined();
    });

    for (const task of tasks) {
      it(`${version}/retail/${task.id}`, () => {
        const vector = referenceVectors().gold[`${version}/retail/${task.id}`];
        if (vector === undefined) throw new Error("missing vector");
        expect(initial.hash()).toBe(vector.after_init.agent); // retail tasks have no init
        const state = initial.fork();
        const outcomes = goldActions(task).map((a) => {
          expect(a.requestor ?? "assistant").toBe("assistant");
          const tool = retailDomain.agentTools.tools.get(a.name);
          if (tool === undefined) throw new Error(`unknown tool ${a.name}`);
          const r = invoke("RetailTools", tool, state, a.arguments, env);
          expect(r.internal).toBeUndefined();
          return r.error ? r.content : "ok";
        });
        expect(outcomes).toEqual(vector.gold_action_results);
        expect(state.hash()).toBe(vector.gold_target.agent);
      });
    }
  }
});
