/**
 * Fast whole-file parsing that still keeps Python's int/float distinction where grading needs it.
 *
 * `JSON.parse` is fast but turns `100.0` into `100`, which a Python grader would hash as an int. Only a
 * few values reach tau2's DB hash: tool-call and gold-action `arguments` and a task's
 * `initialization_data`. So we parse the whole file with `JSON.parse`, re-parse just those values with
 * the typed parser, and swap them in.
 *
 * Finding them in the raw text: the pattern `"arguments"\s*:` can only match a real object key, because
 * inside a JSON string every quote is escaped. Matches nested inside an already-typed value are skipped
 * (the outer twin covers them). The parsed tree is then walked in document order and each key is paired
 * with the next twin. Most twins hold no float (`JSON.parse` got them right): they are not parsed again
 * and line up by key name and count. A twin that carries a float must agree value-for-value with its
 * key's parsed value before it is swapped in. (A mix-up among plain twins alone goes unnoticed, and
 * changes nothing: plain twins are never swapped in.) When anything fails to line up, a second walk
 * compares every value to name the first key at fault: we stop with an error instead of guessing.
 * Alignment can fail only for unusual files: an escaped key name (`"argum\u0065nts"`), a duplicate key
 * (JSON.parse keeps the last), or a typed key below an object with integer-like keys (JavaScript
 * enumerates those first, out of document order).
 */
import { JsonSyntaxError, parsePyJsonAt } from "../py/parse.ts";
import { PyFloat, type PyValue } from "../py/value.ts";
import { EXIT_INTERNAL, RescoreError } from "../util/errors.ts";

/** Keys whose values are restored with Python types for tau2 files. */
export const TAU2_TYPED_KEYS: readonly string[] = ["arguments", "initialization_data"];

export class TypedArgumentsError extends RescoreError {
  override readonly code = "typed_arguments";
  override readonly exitStatus = EXIT_INTERNAL;

  override readonly name = "TypedArgumentsError";
  constructor(
    message: string,
    /** JSON path of the key where alignment failed. */
    readonly path: string,
  ) {
    super(message);
  }
}

/** The value of a plain twin that was not parsed (it is only needed to explain a failure). */
const UNPARSED: unique symbol = Symbol("unparsed");

interface TypedTwin {
  readonly key: string;
  readonly position: number;
  /**
   * `UNPARSED` in the fast pass for a plain value: its text has no number `JSON.parse` would
   * mistype, so the parsed tree already holds it exactly.
   */
  readonly value: PyValue | typeof UNPARSED;
  /**
   * The value nests deeper than the typed parser goes: it keeps its `JSON.parse` form and the
   * simulation or task holding it is rejected by the nesting check, not the whole file.
   */
  readonly tooDeep: boolean;
  /** Bracket nesting of its text (an object of scalars is 1). */
  readonly depth: number;
}

/** The index just after the JSON value at `start` (valid JSON, already accepted by `JSON.parse`). */
function skipJsonValue(text: string, start: number): number {
  let i = start;
  while (/\s/.test(text[i] ?? "")) i++;
  let depth = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (depth === 0) return i + 1;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) return i;
    } else if (depth === 0 && (c === "," || /\s/.test(c as string))) return i;
  }
  return i;
}

function parseTwin(text: string, start: number): { value: PyValue; end: number; tooDeep: boolean } {
  try {
    return { ...parsePyJsonAt(text, start), tooDeep: false };
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    return { value: null, end: skipJsonValue(text, start), tooDeep: true };
  }
}

/**
 * End of the JSON value at `start`, its nesting depth, and whether it holds a number text that
 * `JSON.parse` would mistype: a fraction or exponent, Python's NaN/Infinity, or an int too long
 * for a double. One string-aware scan, no allocation.
 */
function valueExtent(text: string, start: number): { end: number; maxDepth: number; typed: boolean } {
  let maxDepth = 0;
  let depth = 0;
  let typed = false;
  let digits = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (++digits >= 16) typed = true;
      continue;
    }
    const afterDigit = digits > 0;
    digits = 0;
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      if (depth === 0) return { end: i + 1, maxDepth, typed };
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > maxDepth) maxDepth = depth;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      if (depth <= 0) return { end: depth === 0 ? i + 1 : i, maxDepth, typed };
    } else if (
      depth === 0 &&
      i > start &&
      (c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)
    ) {
      return { end: i, maxDepth, typed };
    } else if (c === 0x2e || c === 0x4e || c === 0x49 || (afterDigit && (c === 0x65 || c === 0x45))) {
      // Outside strings `.` and capitals only occur in floats, NaN and Infinity (`e` after a digit).
      typed = true;
    }
  }
  return { end: text.length, maxDepth, typed };
}

/** Deeper than this, a value goes through the typed parser, which rejects it as too deep. */
const PLAIN_MAX_DEPTH = 256;

/**
 * The last characters of a quoted key that `indexOf` looks for. V8 finds a pattern shorter than 7
 * characters by `memchr` on its first character; a longer one such as `"arguments"` goes through its
 * Boyer–Moore–Horspool search, whose skips depend on the pattern's last character, and `"` is
 * everywhere in JSON. Measured over the default corpus: 16 ms for `ments"` against 36 ms for
 * `"arguments"` and about 50 ms for one regex alternating the keys.
 */
const SEARCH_TAIL = 6;

interface KeyHit {
  readonly key: string;
  /** Where the opening quote of the key is. */
  readonly index: number;
  /** Just after the colon. */
  readonly end: number;
}

/**
 * Finds `"key"` followed by optional whitespace and a colon, for any of `keys`, leftmost first from
 * `from` on: the matches of the regex `"(k1|k2|…)"\s*:`, each key searched on its own.
 */
function keyFinder(text: string, keys: readonly string[]): (from: number) => KeyHit | null {
  const quoted = keys.map((k) => `"${k}"`);
  const tails = quoted.map((q) => q.slice(-SEARCH_TAIL));
  // Per key, where its next quoted occurrence starts: -2 before the first search, -1 past the last.
  const next = keys.map(() => -2);
  const colon = /\s*:/y;
  const occurrence = (i: number, from: number): number => {
    const q = quoted[i] as string;
    const tail = tails[i] as string;
    const lead = q.length - tail.length;
    for (let t = text.indexOf(tail, from + lead); t !== -1; t = text.indexOf(tail, t + 1))
      if (text.startsWith(q, t - lead)) return t - lead;
    return -1;
  };
  return (from) => {
    for (let at = from; ; ) {
      let best = -1;
      for (let i = 0; i < keys.length; i++) {
        let n = next[i] as number;
        if (n !== -1 && n < at) next[i] = n = occurrence(i, at);
        if (n !== -1 && (best === -1 || n < (next[best] as number))) best = i;
      }
      if (best === -1) return null;
      const index = next[best] as number;
      colon.lastIndex = index + (quoted[best] as string).length;
      if (colon.test(text)) return { key: keys[best] as string, index, end: colon.lastIndex };
      at = index + 1;
    }
  };
}

function collectTwins(text: string, keys: readonly string[], withPlainValues: boolean): TypedTwin[] {
  const find = keyFinder(text, keys);
  const twins: TypedTwin[] = [];
  // Matches before the end of the previous typed value are nested inside it (its twin covers them).
  for (let hit = find(0); hit !== null; ) {
    let start = hit.end;
    while (start < text.length && /\s/.test(text[start] as string)) start++;
    const { end, maxDepth, typed } = valueExtent(text, start);
    const plain = maxDepth <= PLAIN_MAX_DEPTH && !typed;
    // Most arguments hold no float: `JSON.parse` already got them right. Their value is only
    // parsed again to explain an alignment failure (`withPlainValues`).
    const parsed: { value: TypedTwin["value"]; end: number; tooDeep: boolean } =
      plain && !withPlainValues ? { value: UNPARSED, end, tooDeep: false } : parseTwin(text, start);
    twins.push({
      key: hit.key,
      position: hit.index,
      value: parsed.value,
      tooDeep: parsed.tooDeep,
      depth: maxDepth,
    });
    hit = find(parsed.end);
  }
  return twins;
}

/** True when `typed` (typed parse) and `plain` (JSON.parse) hold the same data. */
function agrees(typed: PyValue, plain: unknown): boolean {
  if (typed instanceof PyFloat) return typeof plain === "number" && plain === typed.v;
  if (typeof typed === "bigint") return typeof plain === "number" && Number(typed) === plain;
  if (typed === null || typeof typed !== "object") return typed === plain;
  if (Array.isArray(typed)) {
    if (!Array.isArray(plain) || plain.length !== typed.length) return false;
    return typed.every((x, i) => agrees(x, plain[i]));
  }
  if (plain === null || typeof plain !== "object" || Array.isArray(plain)) return false;
  const keys = Object.keys(typed);
  if (keys.length !== Object.keys(plain).length) return false;
  const plainRecord = plain as Record<string, unknown>;
  return keys.every((k) => Object.hasOwn(plainRecord, k) && agrees(typed[k] as PyValue, plainRecord[k]));
}

/** Does the value carry information JSON.parse loses (a float or an int beyond 2^53)? */
function needsTypedValue(v: PyValue): boolean {
  if (v instanceof PyFloat || typeof v === "bigint") return true;
  if (v === null || typeof v !== "object") return false;
  if (Array.isArray(v)) return v.some(needsTypedValue);
  return Object.values(v).some(needsTypedValue);
}

function pathText(stack: readonly (string | number)[]): string {
  let out = "";
  for (const seg of stack) out += typeof seg === "number" ? `[${seg}]` : out === "" ? seg : `.${seg}`;
  return out === "" ? "$" : out;
}

/** Beyond this depth the walk switches from recursion to an explicit stack (documents may nest 100k deep). */
const RECURSION_LIMIT = 2000;

/**
 * Pairs each typed key of the parsed tree, in document order, with the next twin. The hot path is a
 * plain recursive walk that keeps no path; the path is only rebuilt for an error.
 */
class TwinWalk {
  private next = 0;
  /** Depth of the deepest array or object seen (the root is 0), twins' contents included. */
  maxDepth = 0;
  /** Typed values to swap in once every key lined up (a failed walk leaves the tree untouched). */
  readonly swaps: { record: Record<string, unknown>; key: string; value: PyValue }[] = [];
  constructor(
    private readonly twins: readonly TypedTwin[],
    private readonly keySet: ReadonlySet<string>,
  ) {}

  get consumed(): number {
    return this.next;
  }

  /** Visits `node`; returns false at the first key that does not line up (nothing after it is touched). */
  walk(node: unknown, depth: number): boolean {
    if (depth > RECURSION_LIMIT) {
      this.maxDepth = Number.POSITIVE_INFINITY;
      return this.walkDeep(node);
    }
    if (depth > this.maxDepth) this.maxDepth = depth;
    if (Array.isArray(node)) {
      for (const x of node) if (x !== null && typeof x === "object" && !this.walk(x, depth + 1)) return false;
      return true;
    }
    const record = node as Record<string, unknown>;
    for (const key in record) {
      const v = record[key];
      if (this.keySet.has(key)) {
        if (!this.pair(record, key, depth)) return false;
      } else if (v !== null && typeof v === "object" && !this.walk(v, depth + 1)) return false;
    }
    return true;
  }

  /** The same visit with an explicit stack, for the deep tail of a pathological document. */
  private walkDeep(root: unknown): boolean {
    return eachTypedKey(root, this.keySet, (record, key) => this.pair(record, key, Number.POSITIVE_INFINITY));
  }

  /** Pairs the typed key `key` of `record` (itself at `depth`) with the next twin. */
  private pair(record: Record<string, unknown>, key: string, depth: number): boolean {
    const twin = this.twins[this.next];
    if (twin === undefined || twin.key !== key) return false;
    // A plain twin without a value (the fast pass) lines up by key; its value equals the parsed one.
    if (!twin.tooDeep && twin.value !== UNPARSED && !agrees(twin.value, record[key])) return false;
    this.next++;
    const below = twin.tooDeep ? Number.POSITIVE_INFINITY : depth + twin.depth;
    if (below > this.maxDepth) this.maxDepth = below;
    // The twin covers everything below this key, so we do not descend.
    if (!twin.tooDeep && twin.value !== UNPARSED && needsTypedValue(twin.value))
      this.swaps.push({ record, key, value: twin.value });
    return true;
  }
}

/**
 * Calls `visit` on every typed key of `root` in document order, without descending below one, until
 * `visit` returns false. An explicit stack: safe on any depth. `path()` names the key being visited.
 */
function eachTypedKey(
  root: unknown,
  keySet: ReadonlySet<string>,
  visit: (record: Record<string, unknown>, key: string, path: () => string) => boolean,
): boolean {
  interface Frame {
    readonly node: unknown[] | Record<string, unknown>;
    /** Null for an array. */
    readonly keys: readonly string[] | null;
    i: number;
    readonly segment: string | number;
  }
  const frames: Frame[] = [];
  const enter = (node: unknown, segment: string | number) => {
    if (Array.isArray(node)) frames.push({ node, keys: null, i: 0, segment });
    else if (node !== null && typeof node === "object")
      frames.push({ node: node as Record<string, unknown>, keys: Object.keys(node), i: 0, segment });
  };
  enter(root, "$");
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as Frame;
    if (frame.keys === null) {
      const list = frame.node as unknown[];
      if (frame.i >= list.length) frames.pop();
      else {
        const i = frame.i++;
        enter(list[i], i);
      }
      continue;
    }
    if (frame.i >= frame.keys.length) {
      frames.pop();
      continue;
    }
    const key = frame.keys[frame.i++] as string;
    const record = frame.node as Record<string, unknown>;
    if (!keySet.has(key)) enter(record[key], key);
    else if (!visit(record, key, () => pathText([...frames.slice(1).map((f) => f.segment), key])))
      return false;
  }
  return true;
}

/** JSON path of the `index`-th typed key of `root` in document order (error path only). */
function pathOfTypedKey(root: unknown, keySet: ReadonlySet<string>, index: number): string {
  let seen = 0;
  let found = "$";
  eachTypedKey(root, keySet, (_record, _key, path) => {
    if (seen++ !== index) return true;
    found = path();
    return false;
  });
  return found;
}

/**
 * Replaces, in place, every value of a typed key in `root` (the `JSON.parse` result of `text`) with its
 * Python-typed twin, when the twin differs in type. Throws `TypedArgumentsError` when the two parses do
 * not line up. Returns the depth of the deepest array or object (the root is 0, a scalar root -1),
 * measured on the way, or null when no key was asked for (nothing walked).
 */
export function restoreTypedValues(
  text: string,
  root: unknown,
  keys: readonly string[] = TAU2_TYPED_KEYS,
): number | null {
  if (keys.length === 0) return null;
  const keySet = new Set(keys);
  const scalarRoot = root === null || typeof root !== "object";
  const fastTwins = collectTwins(text, keys, false);
  const fast = new TwinWalk(fastTwins, keySet);
  if ((scalarRoot || fast.walk(root, 0)) && fast.consumed === fastTwins.length) {
    for (const { record, key, value } of fast.swaps) record[key] = value;
    return scalarRoot ? -1 : fast.maxDepth;
  }
  // Something does not line up: walk again comparing every value, to name the first key that fails.
  const twins = collectTwins(text, keys, true);
  const walk = new TwinWalk(twins, keySet);
  const complete = scalarRoot || walk.walk(root, 0);
  if (!complete) {
    const index = walk.consumed;
    const path = pathOfTypedKey(root, keySet, index);
    const key = path.slice(path.lastIndexOf(".") + 1);
    const twin = twins[index];
    const where = twin === undefined ? "no more typed values in the text" : `text position ${twin.position}`;
    throw new TypedArgumentsError(
      `cannot restore Python number types: the "${key}" value at ${path} does not line up ` +
        `with the raw text (${where}); escaped or duplicate keys?`,
      path,
    );
  }
  const extra = twins[walk.consumed] as TypedTwin;
  throw new TypedArgumentsError(
    `cannot restore Python number types: the raw text has a "${extra.key}" key at position ` +
      `${extra.position} that the parsed document does not (duplicate key?)`,
    "$",
  );
}

/** `JSON.parse` plus typed restoration of the given keys (see the module comment). */
export function parseJsonWithTypedKeys(text: string, keys: readonly string[] = TAU2_TYPED_KEYS): unknown {
  const root: unknown = JSON.parse(text);
  restoreTypedValues(text, root, keys);
  return root;
}
