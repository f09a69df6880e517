/**
 * A JSON parser that keeps Python's int/float distinction: a number token with a fraction or an
 * exponent becomes a `PyFloat`, like Python's `json.loads`. Also accepts Python's `NaN`/`Infinity`.
 * Used for task files and for the small `arguments` objects of tool calls (see `typed-arguments.ts`);
 * whole trajectory files go through the much faster `JSON.parse`.
 */

import { EXIT_INTERNAL, RescoreError } from "../util/errors.ts";
import { type PyDict, PyFloat, type PyValue, recordKeyOrder, setKey } from "./value.ts";

export class JsonSyntaxError extends RescoreError {
  override readonly code = "json_syntax";
  override readonly exitStatus = EXIT_INTERNAL;

  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

const MAX_DEPTH = 2000;

export function parsePyJson(text: string): PyValue {
  const p = new Parser(text);
  p.ws();
  const v = p.value(0);
  p.ws();
  if (p.i < text.length) p.fail("unexpected trailing data");
  return v;
}

/** Parses one JSON value starting at `start`; returns it and the index just after it. */
export function parsePyJsonAt(text: string, start: number): { value: PyValue; end: number } {
  const p = new Parser(text);
  p.i = start;
  p.ws();
  const value = p.value(0);
  return { value, end: p.i };
}

class Parser {
  i = 0;
  constructor(readonly s: string) {}

  fail(msg: string): never {
    throw new JsonSyntaxError(`${msg} at position ${this.i}`, this.i);
  }

  ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) this.i++;
      else break;
    }
  }

  value(depth: number): PyValue {
    if (depth > MAX_DEPTH) this.fail("JSON nested too deeply");
    const c = this.s[this.i];
    switch (c) {
      case "{":
        return this.object(depth);
      case "[":
        return this.array(depth);
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case "N":
        return this.literal("NaN", new PyFloat(Number.NaN));
      case "I":
        return this.literal("Infinity", new PyFloat(Number.POSITIVE_INFINITY));
      default:
        if (c === "-" && this.s.startsWith("-Infinity", this.i)) {
          return this.literal("-Infinity", new PyFloat(Number.NEGATIVE_INFINITY));
        }
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.number();
        return this.fail(
          c === undefined ? "unexpected end of JSON" : `unexpected character ${JSON.stringify(c)}`,
        );
    }
  }

  literal<T extends PyValue>(word: string, v: T): T {
    if (!this.s.startsWith(word, this.i)) this.fail(`invalid literal`);
    this.i += word.length;
    return v;
  }

  number(): PyValue {
    const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = this.i;
    const r = m.exec(this.s);
    if (!r) return this.fail("invalid number");
    this.i += r[0].length;
    if (r[1] !== undefined || r[2] !== undefined) return new PyFloat(Number(r[0]));
    const n = Number(r[0]);
    return Number.isSafeInteger(n) ? n : BigInt(r[0]);
  }

  string(): string {
    const s = this.s;
    const start = ++this.i;
    // fast path: no escapes
    const close = s.indexOf('"', start);
    if (close < 0) this.fail("unterminated string");
    const bs = s.indexOf("\\", start);
    if (bs < 0 || bs > close) {
      const raw = s.slice(start, close);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters
      if (/[\u0000-\u001f]/.test(raw)) this.fail("control character in string");
      this.i = close + 1;
      return raw;
    }
    let out = "";
    for (;;) {
      if (this.i >= s.length) this.fail("unterminated string");
      const ch = s[this.i] as string;
      if (ch === '"') {
        this.i++;
        return out;
      }
      if (ch === "\\") {
        const e = s[this.i + 1];
        this.i += 2;
        switch (e) {
          case '"':
            out += '"';
            break;
          case "\\":
            out += "\\";
            break;
          case "/":
            out += "/";
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "\t";
            break;
          case "u": {
            const hex = s.slice(this.i, this.i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("invalid \\u escape");
            out += String.fromCharCode(Number.parseInt(hex, 16));
            this.i += 4;
            break;
          }
          default:
            this.fail("invalid escape");
        }
      } else {
        if (ch.charCodeAt(0) < 0x20) this.fail("control character in string");
        out += ch;
        this.i++;
      }
    }
  }

  array(depth: number): PyValue[] {
    this.i++;
    const out: PyValue[] = [];
    this.ws();
    if (this.s[this.i] === "]") {
      this.i++;
      return out;
    }
    for (;;) {
      this.ws();
      out.push(this.value(depth + 1));
      this.ws();
      const c = this.s[this.i++];
      if (c === "]") return out;
      if (c !== ",") this.fail("expected ',' or ']'");
    }
  }

  object(depth: number): PyDict {
    this.i++;
    const out: PyDict = {};
    this.ws();
    if (this.s[this.i] === "}") {
      this.i++;
      return out;
    }
    // Document order, collected from the first key that starts with a digit (JavaScript may list such
    // keys first); until then JavaScript's own order is the document's.
    let keys: string[] | null = null;
    for (;;) {
      this.ws();
      if (this.s[this.i] !== '"') this.fail("expected a string key");
      const k = this.string();
      this.ws();
      if (this.s[this.i++] !== ":") this.fail("expected ':'");
      this.ws();
      if (keys !== null) {
        if (!Object.hasOwn(out, k)) keys.push(k);
      } else if (k.charCodeAt(0) >= 0x30 && k.charCodeAt(0) <= 0x39 && !Object.hasOwn(out, k)) {
        keys = [...Object.keys(out), k];
      }
      setKey(out, k, this.value(depth + 1));
      this.ws();
      const c = this.s[this.i++];
      if (c === "}") {
        if (keys !== null) recordKeyOrder(out, keys);
        return out;
      }
      if (c !== ",") this.fail("expected ',' or '}'");
    }
  }
}
