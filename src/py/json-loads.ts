/**
 * Python `json.loads` (CPython 3.11's C scanner) over the PyValue model, with its exact
 * `JSONDecodeError` texts: banking's dispatchers and `query_database` put `str(e)` in their results.
 * Positions are counted in code points, as Python's str indices are.
 */
import { PyException, PyTypeError } from "./errors.ts";
import { type PyDict, PyFloat, type PyValue, pyTypeName, recordKeyOrder, setKey } from "./value.ts";

/** Python's `json.JSONDecodeError`; `message` is its `str()`. */
export class PyJsonDecodeError extends PyException {
  override readonly pyType = "JSONDecodeError";
  constructor(
    readonly msg: string,
    readonly pos: number,
    readonly lineno: number,
    readonly colno: number,
  ) {
    super(`${msg}: line ${lineno} column ${colno} (char ${pos})`);
  }
}

export interface JsonLoadsOptions {
  /** `json.loads(text, parse_int=float)`: integer tokens become floats. */
  readonly parseIntAsFloat?: boolean;
}

/** Python's `int()` refuses longer digit strings (3.11's `sys.get_int_max_str_digits()` default). */
const INT_MAX_STR_DIGITS = 4300;
/**
 * Nesting depth at which the C scanner hits the recursion limit. The real limit depends on the
 * caller's Python stack depth (996 at top level, fewer inside a tool), so this is approximate.
 */
const MAX_NESTING = 990;

/** Raised by the value scanner when no value starts at `pos` (Python's `StopIteration(pos)`). */
class NoValue {
  constructor(readonly pos: number) {}
}

/** Python `json.loads(s)`; a non-str raises Python's TypeError, bad text a `PyJsonDecodeError`. */
export function pyJsonLoads(s: PyValue | undefined, opts: JsonLoadsOptions = {}): PyValue {
  if (typeof s !== "string") {
    throw new PyTypeError(`the JSON object must be str, bytes or bytearray, not ${pyTypeName(s)}`);
  }
  const cs = Array.from(s);
  const err = (msg: string, pos: number): PyJsonDecodeError => {
    let lineno = 1;
    let lastNl = -1;
    for (let i = 0; i < pos; i++) {
      if (cs[i] === "\n") {
        lineno++;
        lastNl = i;
      }
    }
    return new PyJsonDecodeError(msg, pos, lineno, pos - lastNl);
  };
  if (cs[0] === "\ufeff") throw err("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
  const scanner = new Scanner(cs, opts.parseIntAsFloat === true, err);
  const start = scanner.ws(0);
  let value: PyValue;
  let end: number;
  try {
    [value, end] = scanner.value(start, 0);
  } catch (e) {
    if (e instanceof NoValue) throw err("Expecting value", e.pos);
    throw e;
  }
  end = scanner.ws(end);
  if (end !== cs.length) throw err("Extra data", end);
  return value;
}

const isWs = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\r";
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
const HEX = /^[0-9a-fA-F]$/;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

class Scanner {
  constructor(
    readonly cs: readonly string[],
    readonly intAsFloat: boolean,
    readonly err: (msg: string, pos: number) => PyJsonDecodeError,
  ) {}

  ws(i: number): number {
    while (isWs(this.cs[i])) i++;
    return i;
  }

  private matches(i: number, word: string): boolean {
    for (let k = 0; k < word.length; k++) if (this.cs[i + k] !== word[k]) return false;
    return true;
  }

  /** `scan_once`: one value at `i`, returned with the index just after it. */
  value(i: number, depth: number): [PyValue, number] {
    const c = this.cs[i];
    switch (c) {
      case '"':
        return this.string(i + 1);
      case "{":
        return this.object(i + 1, depth + 1);
      case "[":
        return this.array(i + 1, depth + 1);
      case "n":
        if (this.matches(i, "null")) return [null, i + 4];
        break;
      case "t":
        if (this.matches(i, "true")) return [true, i + 4];
        break;
      case "f":
        if (this.matches(i, "false")) return [false, i + 5];
        break;
      case "N":
        if (this.matches(i, "NaN")) return [new PyFloat(Number.NaN), i + 3];
        break;
      case "I":
        if (this.matches(i, "Infinity")) return [new PyFloat(Number.POSITIVE_INFINITY), i + 8];
        break;
      case "-":
        if (this.matches(i, "-Infinity")) return [new PyFloat(Number.NEGATIVE_INFINITY), i + 9];
        break;
    }
    return this.number(i);
  }

  /** `_match_number_unicode`: a JSON number, backtracking over a dangling `.` or exponent. */
  private number(start: number): [PyValue, number] {
    const cs = this.cs;
    let i = start;
    if (cs[i] === "-") i++;
    if (isDigit(cs[i]) && cs[i] !== "0") {
      while (isDigit(cs[i])) i++;
    } else if (cs[i] === "0") {
      i++;
    } else {
      throw new NoValue(start);
    }
    let isFloat = false;
    if (cs[i] === "." && isDigit(cs[i + 1])) {
      isFloat = true;
      i += 2;
      while (isDigit(cs[i])) i++;
    }
    if ((cs[i] === "e" || cs[i] === "E") && i + 1 < cs.length) {
      const eStart = i;
      i++;
      if ((cs[i] === "-" || cs[i] === "+") && i + 1 < cs.length) i++;
      while (isDigit(cs[i])) i++;
      if (isDigit(cs[i - 1])) isFloat = true;
      else i = eStart;
    }
    const text = cs.slice(start, i).join("");
    if (isFloat || this.intAsFloat) return [new PyFloat(Number(text)), i];
    const digits = text.replace("-", "").length;
    if (digits > INT_MAX_STR_DIGITS) {
      throw new PyException(
        `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
      );
    }
    const n = Number(text);
    // `+ 0`: the int `-0` is 0.
    return [Number.isSafeInteger(n) ? n + 0 : BigInt(text), i];
  }

  /** `scanstring`: the body of a string whose opening quote is at `begin - 1`. */
  string(begin: number): [string, number] {
    const cs = this.cs;
    const quote = begin - 1;
    let out = "";
    let i = begin;
    for (;;) {
      let c: string | undefined;
      for (; i < cs.length; i++) {
        c = cs[i];
        if (c === '"' || c === "\\") break;
        if ((c as string).charCodeAt(0) <= 0x1f) throw this.err("Invalid control character at", i);
        out += c;
      }
      if (i >= cs.length) throw this.err("Unterminated string starting at", quote);
      i++;
      if (c === '"') return [out, i];
      if (i === cs.length) throw this.err("Unterminated string starting at", quote);
      const e = cs[i] as string;
      if (e !== "u") {
        const mapped = ESCAPES[e];
        if (mapped === undefined) throw this.err("Invalid \\escape", i - 1);
        out += mapped;
        i++;
        continue;
      }
      const uPos = i;
      i++;
      if (i + 4 >= cs.length) throw this.err("Invalid \\uXXXX escape", uPos);
      let code = this.hex4(i, uPos);
      i += 4;
      // A high surrogate escape followed by a low one joins into one code point.
      if (code >= 0xd800 && code <= 0xdbff && i + 6 < cs.length && cs[i] === "\\" && cs[i + 1] === "u") {
        const low = this.hex4(i + 2, i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
      out += String.fromCodePoint(code);
    }
  }

  private hex4(i: number, uPos: number): number {
    let code = 0;
    for (let k = 0; k < 4; k++) {
      const d = this.cs[i + k] as string;
      if (!HEX.test(d)) throw this.err("Invalid \\uXXXX escape", uPos);
      code = code * 16 + Number.parseInt(d, 16);
    }
    return code;
  }

  private tooDeep(depth: number, what: string): void {
    if (depth > MAX_NESTING) {
      throw new PyException(
        `maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`,
      );
    }
  }

  private object(i: number, depth: number): [PyDict, number] {
    this.tooDeep(depth, "object");
    const cs = this.cs;
    const out: PyDict = {};
    // Document order, for keys JavaScript would enumerate first (integer-like ones).
    const keys: string[] = [];
    i = this.ws(i);
    if (cs[i] === "}") return [out, i + 1];
    for (;;) {
      if (cs[i] !== '"') throw this.err("Expecting property name enclosed in double quotes", i);
      const [key, afterKey] = this.string(i + 1);
      if (!Object.hasOwn(out, key)) keys.push(key);
      i = this.ws(afterKey);
      if (cs[i] !== ":") throw this.err("Expecting ':' delimiter", i);
      i = this.ws(i + 1);
      const [v, afterValue] = this.value(i, depth);
      // A repeated key keeps its first position and takes the last value, as in a Python dict.
      setKey(out, key, v);
      i = this.ws(afterValue);
      if (cs[i] === "}") {
        recordKeyOrder(out, keys);
        return [out, i + 1];
      }
      if (cs[i] !== ",") throw this.err("Expecting ',' delimiter", i);
      i = this.ws(i + 1);
    }
  }

  private array(i: number, depth: number): [PyValue[], number] {
    this.tooDeep(depth, "array");
    const cs = this.cs;
    const out: PyValue[] = [];
    i = this.ws(i);
    if (cs[i] === "]") return [out, i + 1];
    for (;;) {
      const [v, after] = this.value(i, depth);
      out.push(v);
      i = this.ws(after);
      if (cs[i] === "]") return [out, i + 1];
      if (cs[i] !== ",") throw this.err("Expecting ',' delimiter", i);
      i = this.ws(i + 1);
    }
  }
}
