/**
 * Table-driven toolkits. A tool is a value: name, type, whether it mutates state, its Python
 * parameter list, and a `run` function over a copy-on-write DB state. The dispatcher reproduces
 * Python's call semantics (keyword binding errors, "Error: <str(exc)>" results, no rollback).
 */
import { PyException as ToolError } from "../py/errors.ts";
import { pyDumps } from "../py/json.ts";
import { pyNumStr } from "../py/number.ts";
import { isPyDict, type PyDict, PyFloat, type PyValue, pyTypeName, setKey } from "../py/value.ts";
import { DbAttributeError, type DbState } from "./db-state.ts";
import type { Quirks } from "./quirks.ts";

export type ToolKind = "read" | "write" | "think" | "generic";

/** A Python parameter; `default` present means the parameter is optional. */
export interface Param {
  readonly name: string;
  readonly default?: PyValue;
}

/** Arguments after Python keyword binding: every declared parameter is present. */
export type Args = Readonly<Record<string, PyValue>>;

/** A pydantic model in a tool result: dumped as-is (numbers keep their type), unlike plain dicts. */
export class Model {
  constructor(readonly data: PyValue) {}
}
export const model = (data: PyValue): Model => new Model(data);

/** What a tool may return: a verbatim string, or a value rendered like tau2's `to_json_str`. */
export type ToolOutput = string | PyValue | Model | ToolOutput[] | { [k: string]: ToolOutput };

/** A business error raised by a tool; the result text is `Error: <message>`. */
export { PyException as ToolError } from "../py/errors.ts";

/**
 * Everything a tool may touch besides its own DB: process-wide state that tau2 keeps in class
 * attributes (telecom's shared VPN object). Owned by the caller, so grading stays explicit.
 */
export interface ToolEnv {
  readonly shared: Map<string, unknown>;
  readonly quirks: Quirks;
  /** State tau2 keeps in one toolkit instance (banking's unlocked tools); absent for most domains. */
  readonly session?: ToolSession;
}

/**
 * Per-simulation toolkit state outside the DB. An environment's fork gets its own copy, so a fork of
 * a task setup never sees another simulation's changes.
 */
export interface ToolSession {
  fork(): ToolSession;
}

export interface FunctionDef {
  readonly name: string;
  readonly params: readonly Param[];
  run(db: DbState, args: Args, env: ToolEnv): ToolOutput;
}

export interface ToolDef extends FunctionDef {
  readonly kind: ToolKind;
  /** Replay re-executes only mutating tools; defaults to `kind === "write"`. */
  readonly mutates?: boolean;
  /**
   * False for a read tool the port declares but cannot run (banking's knowledge-base search needs an
   * index and a sandbox): replay never needs it, and a call is a port limitation, never tau2's output.
   */
  readonly reproduced?: false;
}

export const mutatesState = (t: ToolDef): boolean => t.mutates ?? t.kind === "write";

export interface Toolkit {
  /** The Python class name, used in TypeError texts (`AirlineTools.book_reservation() ...`). */
  readonly className: string;
  readonly tools: ReadonlyMap<string, ToolDef>;
  /** Non-tool methods that tasks call: initialization actions and env assertions. */
  readonly functions: ReadonlyMap<string, FunctionDef>;
}

export function makeToolkit(className: string, tools: ToolDef[], functions: FunctionDef[] = []): Toolkit {
  const t = new Map<string, ToolDef>();
  for (const x of tools) {
    if (t.has(x.name)) throw new Error(`${className}: duplicate tool ${x.name}`);
    t.set(x.name, x);
  }
  const f = new Map<string, FunctionDef>();
  for (const x of functions) f.set(x.name, x);
  return { className, tools: t, functions: f };
}

const quoteList = (names: string[]): string => {
  const q = names.map((n) => `'${n}'`);
  if (q.length === 1) return q[0] as string;
  if (q.length === 2) return `${q[0]} and ${q[1]}`;
  return `${q.slice(0, -1).join(", ")}, and ${q[q.length - 1]}`;
};

/** Python keyword binding: the TypeError texts of CPython 3.11 for unexpected or missing arguments. */
export function bindArguments(className: string, fn: FunctionDef, raw: PyValue): Args {
  const qual = `${className}.${fn.name}()`;
  if (!isPyDict(raw))
    throw new ToolError(`${qual} argument after ** must be a mapping, not ${pyTypeName(raw)}`);
  const known = new Set(fn.params.map((p) => p.name));
  for (const k of Object.keys(raw)) {
    if (!known.has(k)) throw new ToolError(`${qual} got an unexpected keyword argument '${k}'`);
  }
  const missing = fn.params
    .filter((p) => !("default" in p) && !Object.hasOwn(raw, p.name))
    .map((p) => p.name);
  if (missing.length > 0) {
    const s = missing.length === 1 ? "" : "s";
    throw new ToolError(
      `${qual} missing ${missing.length} required positional argument${s}: ${quoteList(missing)}`,
    );
  }
  const out: Record<string, PyValue> = {};
  for (const p of fn.params) {
    const v = Object.hasOwn(raw, p.name) ? raw[p.name] : p.default;
    setKey(out, p.name, v as PyValue);
  }
  return out;
}

/** Converts a tool's return value to result text, as tau2's `Environment.to_json_str` does. */
export function renderToolOutput(out: ToolOutput): string {
  if (typeof out === "string") return out;
  return pyDumps(convert(out), false);
}

function convert(v: ToolOutput): PyValue {
  if (v instanceof Model) return v.data;
  if (v === null) return null;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint" || v instanceof PyFloat) {
    return pyNumStr(v);
  }
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.map(convert);
  const o: PyDict = {};
  for (const k of Object.keys(v)) setKey(o, k, convert((v as Record<string, ToolOutput>)[k] as ToolOutput));
  return o;
}

export interface CallOutcome {
  readonly content: string;
  readonly error: boolean;
  /** The raw return value on success (for callers that need a bool, e.g. env assertions). */
  readonly value?: ToolOutput;
  /** Set when the failure came from a JS fault in the port rather than a Python-level error. */
  readonly internal?: boolean;
}

/** Runs a bound call and converts any failure to tau2's `Error: ...` result (no rollback). */
export function invoke(
  className: string,
  fn: FunctionDef,
  db: DbState,
  rawArgs: PyValue,
  env: ToolEnv,
  /** False when only success matters (tau2 renders no text for gold actions): `content` is then "". */
  render = true,
): CallOutcome {
  try {
    const args = bindArguments(className, fn, rawArgs);
    const value = fn.run(db, args, env);
    return { content: render ? renderToolOutput(value) : "", error: false, value };
  } catch (e) {
    if (e instanceof ToolError) return { content: `Error: ${e.message}`, error: true };
    // An AttributeError is Python-level too (tau2's aliased user DB); anything else is a port fault.
    if (e instanceof DbAttributeError) return { content: `Error: ${e.message}`, error: true };
    const msg = e instanceof Error ? e.message : String(e);
    return { content: `Error: ${msg}`, error: true, internal: true };
  }
}
