/** Airline test fixtures: the loaded FlightDB (once per test file), task files and vectors. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { airlineDomain } from "../../../src/domains/airline/index.ts";
import type { DbBase } from "../../../src/domains/db-state.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import type { PyDict, PyValue } from "../../../src/py/value.ts";
import { DATA_DIR } from "../../helpers/data.ts";

export { DATA_DIR, referenceVectors } from "../../helpers/data.ts";

let base: DbBase | undefined;
export function airlineBase(): DbBase {
  base ??= airlineDomain.loadAgentDb(DATA_DIR);
  return base;
}

export interface GoldAction {
  readonly name: string;
  readonly arguments: PyValue;
  readonly requestor?: string;
}
export interface AirlineTask {
  readonly id: string;
  readonly actions: readonly GoldAction[];
}

export const TASK_FILES = {
  head: join(DATA_DIR, "domains/airline/tasks.json"),
  "v0.2.0": join(DATA_DIR, "versions/v0.2.0_f8de30c/domains/airline/tasks.json"),
} as const;

/** Tasks parsed with int/float distinction kept, so gold arguments have their Python types. */
export function loadTasks(path: string): AirlineTask[] {
  const raw = parsePyJson(readFileSync(path, "utf8")) as PyDict[];
  return raw.map((t) => {
    const criteria = t.evaluation_criteria as PyDict | null;
    const actions = ((criteria?.actions ?? []) as PyDict[]).map((a) => ({
      name: a.name as string,
      arguments: a.arguments as PyValue,
      requestor: (a.requestor as string | undefined) ?? "assistant",
    }));
    return { id: t.id as string, actions };
  });
}
