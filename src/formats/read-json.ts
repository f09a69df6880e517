/**
 * Reads one `.json` file for the loaders: fast `JSON.parse` with Python-typed argument values, a JSON
 * Lines check (judge outputs are saved as `.json`), and error texts that give the position.
 */
import { constants, isAscii, isUtf8 } from "node:buffer";
import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  openSync,
  readFileSync,
  type Stats,
  statSync,
} from "node:fs";
import { JsonSyntaxError, parsePyJson } from "../py/parse.ts";
import { PyFloat, type PyValue, setKey } from "../py/value.ts";
import { FormatError } from "./errors.ts";
import { MAX_NESTING, markWithinNesting } from "./nesting.ts";
import { restoreTypedValues, TAU2_TYPED_KEYS, TypedArgumentsError } from "./typed-arguments.ts";

/** One non-empty line of a JSON Lines file: its value, or why it is not one. */
export type JsonLine =
  | { readonly line: number; readonly value: unknown }
  | { readonly line: number; readonly error: string };

export type JsonDocument =
  | { readonly kind: "json"; readonly data: unknown }
  | { readonly kind: "jsonl"; readonly records: number; readonly lines: readonly JsonLine[] };

function lineAndColumn(text: string, position: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < position; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${position - lineStart + 1}`;
}

/**
 * Every non-empty line parsed on its own (Python's number types restored where `keysOf` names them), with
 * its 1-based line number; a line that is no JSON value keeps its error.
 */
function jsonLines(file: string, text: string, keysOf: (data: unknown) => readonly string[]): JsonLine[] {
  const out: JsonLine[] = [];
  let line = 0;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    const raw = text.slice(start, end);
    start = end + 1;
    line++;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      out.push({ line, error: `invalid JSON: ${(err as Error).message}` });
      continue;
    }
    try {
      const depth = restoreTypedValues(raw, value, keysOf(value));
      if (depth !== null && depth < MAX_NESTING) markWithinNesting(value);
    } catch (err) {
      if (!(err instanceof TypedArgumentsError)) throw err;
      out.push({ line, error: `at ${err.path}: ${err.message}` });
      continue;
    }
    out.push({ line, value });
  }
  if (out.length === 0) throw new FormatError(file, "$", "empty file (no JSON value)");
  return out;
}

const parsedLines = (lines: readonly JsonLine[]) => lines.filter((l) => "value" in l).length;

/**
 * Whether lines whose first is no JSON value still read as JSON Lines: at least two are objects, and
 * objects are at least half the lines (a cut or broken pretty-printed document has a few lines that
 * parse alone, `"b"` or `{}`, among many that do not).
 */
function mostlyObjectLines(lines: readonly JsonLine[]): boolean {
  const objects = lines.filter(
    (l) => "value" in l && typeof l.value === "object" && l.value !== null && !Array.isArray(l.value),
  ).length;
  return objects >= 2 && objects * 2 >= lines.length;
}

/**
 * True when the first line is a JSON value on its own and more text follows: then the whole text
 * cannot be one JSON document, and parsing it as one (which fails only at the second line, after
 * scanning the rest) is skipped. A pretty-printed document's first line (`{`) fails at once.
 */
function startsWithJsonLine(text: string): boolean {
  // The first line with text (blank lines before it are skipped).
  const start = text.search(/[^\s]/);
  const lineStart = start <= 0 ? 0 : text.lastIndexOf("\n", start) + 1;
  const newline = text.indexOf("\n", lineStart);
  if (newline === -1) return false;
  const visible = /\S/g;
  visible.lastIndex = newline + 1;
  if (!visible.test(text)) return false;
  const line = text.slice(lineStart, newline);
  const first = line.trim();
  if (first === "{" || first === "[") return false; // a pretty-printed document: skip the throw
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/**
 * Python writes `NaN`/`Infinity` that `JSON.parse` rejects. For such files the whole document comes from
 * the typed parser; everything outside the typed keys is turned back into plain JS numbers, so the result
 * has the same shape as the fast path.
 */
function plainOutsideTypedKeys(v: PyValue, keys: ReadonlySet<string>): unknown {
  if (v instanceof PyFloat) return v.v;
  if (typeof v === "bigint") return Number(v);
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map((x) => plainOutsideTypedKeys(x, keys));
  for (const k of Object.keys(v)) {
    if (!keys.has(k)) setKey(v, k, plainOutsideTypedKeys(v[k] as PyValue, keys) as PyValue);
  }
  return v;
}

const KINDS: readonly [keyof Stats, string][] = [
  ["isDirectory", "a directory"],
  ["isFIFO", "a FIFO"],
  ["isSocket", "a socket"],
  ["isCharacterDevice", "a character device"],
  ["isBlockDevice", "a block device"],
];
const kindOf = (st: Stats): string =>
  KINDS.find(([test]) => (st[test] as () => boolean).call(st))?.[1] ?? "not a file";

/** Why `st` cannot be read as a results file (not regular, or too long for a JS string), or null. */
function unreadableReason(st: Stats): string | null {
  if (!st.isFile()) return `not a regular file (${kindOf(st)}): skipped`;
  if (st.size > constants.MAX_STRING_LENGTH)
    return `too large: ${Math.floor(st.size / 2 ** 20)} MB (files of 512 MB or more cannot be decoded in one piece; split it)`;
  return null;
}

/**
 * A file's bytes, refusing what is not a regular file before opening it (a FIFO blocks its reader
 * until a writer comes) and checking again on the open descriptor (the path may change in between).
 */
export function readRegularFile(file: string): Buffer {
  const before = unreadableReason(statSync(file));
  if (before !== null) throw new FormatError(file, "$", before);
  const fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  try {
    const after = unreadableReason(fstatSync(fd));
    if (after !== null) throw new FormatError(file, "$", after);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readBytes(file: string): Uint8Array {
  try {
    return readRegularFile(file);
  } catch (err) {
    if (err instanceof FormatError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "ELOOP"
            ? "symbolic link loop"
            : (err as Error).message;
    throw new FormatError(file, "$", `cannot read file: ${why}`);
  }
}

/** Where the first byte that breaks UTF-8 sits, for the error text (only called on invalid input). */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let lo = 0;
  let hi = bytes.length;
  // Binary search on prefixes; a cut inside a valid sequence may look invalid, so widen by 3 bytes.
  while (hi - lo > 4) {
    const mid = (lo + hi) >>> 1;
    if (isUtf8(bytes.subarray(0, mid)) || isUtf8(bytes.subarray(0, Math.min(mid + 3, bytes.length))))
      lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Decodes a file's bytes strictly: Node's lenient decoding would turn invalid bytes into U+FFFD and
 * grade a silently altered text. tau2 writes UTF-8 (a BOM is tolerated, as Python's `utf-8-sig` does).
 */
export function decodeUtf8(file: string, bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Most files are pure ASCII: then Latin-1 decoding gives the same text, about 2.5× faster.
  if (isAscii(bytes)) return buffer.toString("latin1");
  if (
    bytes.length >= 2 &&
    ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
  )
    throw new FormatError(file, "$", "not UTF-8: the file starts with a UTF-16 byte order mark");
  if (!isUtf8(bytes)) {
    throw new FormatError(
      file,
      "$",
      `not valid UTF-8 (first invalid byte near offset ${firstInvalidUtf8(bytes)})`,
    );
  }
  const text = buffer.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Keys whose values are restored with Python types: a list, or worked out from the parsed document. */
export type TypedKeys = readonly string[] | ((data: unknown) => readonly string[]);

export function readJsonDocument(
  file: string,
  typedKeys: TypedKeys = TAU2_TYPED_KEYS,
  /** The file's content when the caller has already read it (bytes are checked for UTF-8). */
  content?: string | Uint8Array,
): JsonDocument {
  const keysOf = (data: unknown) => (typeof typedKeys === "function" ? typedKeys(data) : typedKeys);
  const text = typeof content === "string" ? content : decodeUtf8(file, content ?? readBytes(file));
  if (text.trim() === "") throw new FormatError(file, "$", "empty file (no JSON value)");
  // A first line that is a JSON value with more text after it cannot start one JSON document: the file
  // is JSON Lines, and a bad line further on is that line's problem, not the file's.
  if (startsWithJsonLine(text)) {
    const lines = jsonLines(file, text, keysOf);
    return { kind: "jsonl", records: parsedLines(lines), lines };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    // Our own parser gives an exact position, and accepts Python's NaN/Infinity.
    try {
      const typed = parsePyJson(text);
      return { kind: "json", data: plainOutsideTypedKeys(typed, new Set(keysOf(typed))) };
    } catch (err) {
      if (!(err instanceof JsonSyntaxError)) throw err;
      // Not one document: JSON Lines whose first line is bad, when the lines are mostly objects.
      const lines = /\n\s*\S/.test(text.trimEnd()) ? jsonLines(file, text, keysOf) : [];
      if (mostlyObjectLines(lines)) return { kind: "jsonl", records: parsedLines(lines), lines };
      // At the very end the parser's own text ("expected a string key") hides the real cause.
      const truncated = err.position >= text.trimEnd().length;
      const message = truncated
        ? "unexpected end of input (truncated file?)"
        : err.message.replace(/ at position \d+$/, "");
      throw new FormatError(
        file,
        "$",
        `invalid JSON: ${message} at position ${err.position} (${lineAndColumn(text, err.position)})`,
      );
    }
  }
  try {
    const depth = restoreTypedValues(text, data, keysOf(data));
    // The walk measured the whole document: the loaders' per-item nesting checks can be skipped.
    if (depth !== null && depth < MAX_NESTING) markWithinNesting(data);
  } catch (err) {
    if (err instanceof TypedArgumentsError) throw new FormatError(file, err.path, err.message);
    throw err;
  }
  return { kind: "json", data };
}
