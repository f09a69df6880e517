/** Test data for the telecom domain: the tau2 data dir, the reference vectors, task files, fresh states. */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DbState } from "../../../src/domains/db-state.ts";
import { type Quirks, TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { telecomDomain } from "../../../src/domains/telecom/index.ts";
import { type CallOutcome, invoke, type ToolEnv } from "../../../src/domains/toolkit.ts";
import { parsePyJson } from "../../../src/py/parse.ts";
import type { PyDict, PyValue } from "../../../src/py/value.ts";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export const DATA_DIR = process.env.TAU2_DATA_DIR ?? join(REPO, "..", "shared", "tau2-data");
const VECTORS_PATH = join(DATA_DIR, "..", "vectors", "tau2-reference-vectors.json");

export interface GoldVector {
  after_init: { agent: string; user: string };
  gold_target: { agent: string; user: string };
  gold_action_results: string[];
}
export interface Vectors {
  initial_db_hashes: Record<string, { agent: string; user: string }>;
  gold: Record<string, GoldVector>;
}

export const loadVectors = (): Vectors => JSON.parse(readFileSync(VECTORS_PATH, "utf8")) as Vectors;

/** Task files parsed with int/float kept apart (gold arguments keep their Python types). */
export const loadTasks = (relative: string): PyDict[] =>
  parsePyJson(readFileSync(join(DATA_DIR, relative), "utf8")) as PyDict[];

export const agentBase = telecomDomain.loadAgentDb(DATA_DIR);
export const userBase = telecomDomain.loadUserDb!(DATA_DIR);

export const newEnv = (quirks: Quirks = TAU2_QUIRKS): ToolEnv => ({ shared: new Map(), quirks });

/** A fresh agent/user state pair over the shipped DBs. */
export function freshStates(): { agent: DbState; user: DbState } {
  return { agent: DbState.of(agentBase), user: DbState.of(userBase) };
}

/** Calls a tool (or, when `functions` is allowed, a non-tool method) of one side's toolkit. */
export function call(
  side: "assistant" | "user",
  states: { agent: DbState; user: DbState },
  name: string,
  args: PyValue,
  env: ToolEnv,
  withFunctions = true,
): CallOutcome {
  const kit = side === "assistant" ? telecomDomain.agentTools : telecomDomain.userTools!;
  const fn = kit.tools.get(name) ?? (withFunctions ? kit.functions.get(name) : undefined);
  if (fn === undefined) return { content: `Error: Tool '${name}' not found.`, error: true };
  return invoke(kit.className, fn, side === "assistant" ? states.agent : states.user, args, env);
}
