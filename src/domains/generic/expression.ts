/**
 * A safe evaluator for the Python expressions tau2's `calculate` tool passes to `eval` after
 * allowing only the characters `0-9 + - * / ( ) .` and space. With those characters Python can
 * form: int and float literals, `+ - * / // **`, unary signs, parentheses, the empty tuple `()`,
 * the ellipsis `...` and calls (`2(3)`, which fail at run time). Results and error texts follow
 * CPython 3.11: ints are exact (BigInt), `/` is true division, and errors carry Python's message.
 */
import { EXIT_INTERNAL, RescoreError } from "../../util/errors.ts";

/** A Python exception raised while compiling or evaluating; `message` is `str(exception)`. */
export class PyExprError extends RescoreError {
  override readonly code = "python_expression";
  override readonly exitStatus = EXIT_INTERNAL;

  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(message);
    this.name = "PyExprError";
  }
}

const syntaxError = (msg: string, line = 1) =>
  new PyExprError("SyntaxError", `${msg} (<string>, line ${line})`);
const typeError = (msg: string) => new PyExprError("TypeError", msg);
const zeroDivision = (msg: string) => new PyExprError("ZeroDivisionError", msg);
const overflow = (msg: string) => new PyExprError("OverflowError", msg);

// ---- values ----

/** int (exact), float, or one of the non-numeric objects the grammar can produce. */
export type ExprValue =
  | { t: "int"; v: bigint }
  | { t: "float"; v: number }
  | { t: "tuple" }
  | { t: "ellipsis" }
  | { t: "complex" };

const int = (v: bigint): ExprValue => ({ t: "int", v });
const flt = (v: number): ExprValue => ({ t: "float", v });
const COMPLEX: ExprValue = { t: "complex" };

/** Python `float(int)`, which refuses ints beyond the double range. */
function intToFloat(v: bigint): number {
  const x = Number(v);
  if (!Number.isFinite(x)) throw overflow("int too large to convert to float");
  return x;
}

const asFloat = (x: ExprValue): number =>
  x.t === "int" ? intToFloat(x.v) : x.t === "float" ? x.v : Number.NaN;

/** Python `float(result)` for the final conversion. */
export function pyFloatOf(x: ExprValue): number {
  if (x.t === "int" || x.t === "float") return asFloat(x);
  throw typeError(`float() argument must be a string or a real number, not '${x.t}'`);
}

// ---- tokens ----

type Tok =
  | { k: "num"; text: string; depth: number }
  | { k: "op"; text: string; depth: number }
  | { k: "end"; depth: number };

interface Tokenized {
  toks: Tok[];
  /** A tokenizer error (CPython reports these in preference to a generic "invalid syntax"). */
  error?: PyExprError;
}

/** Ends the token list where the tokenizer failed; the parser sees the end of input there. */
function stopAt(toks: Tok[], depth: number, error: PyExprError): Tokenized {
  toks.push({ k: "end", depth });
  return { toks, error };
}

const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

function tokenize(src: string): Tokenized {
  const toks: Tok[] = [];
  let depth = 0;
  let i = 0;
  while (i < src.length) {
    const c = src[i] as string;
    if (c === " ") {
      i++;
    } else if (isDigit(c) || (c === "." && isDigit(src[i + 1]))) {
      let j = i;
      while (isDigit(src[j])) j++;
      const intPart = src.slice(i, j);
      let isFloat = false;
      if (src[j] === ".") {
        isFloat = true;
        j++;
        while (isDigit(src[j])) j++;
      }
      if (!isFloat && /^0+[1-9]/.test(intPart)) {
        const msg =
          "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers";
        return stopAt(toks, depth, syntaxError(msg));
      }
      toks.push({ k: "num", text: src.slice(i, j), depth });
      i = j;
    } else if (src.startsWith("...", i)) {
      toks.push({ k: "op", text: "...", depth });
      i += 3;
    } else {
      const two = src.slice(i, i + 2);
      const text = two === "**" || two === "//" ? two : c;
      if (text === "(") depth++;
      if (text === ")") {
        if (depth === 0) return stopAt(toks, depth, syntaxError("unmatched ')'"));
        depth--;
      }
      toks.push({ k: "op", text, depth });
      i += text.length;
    }
  }
  toks.push({ k: "end", depth });
  return { toks };
}

// ---- parser (Python's precedence: `+ -` < `* / //` < unary < `**` < call) ----

type Node =
  | { n: "num"; text: string }
  | { n: "tuple" }
  | { n: "ellipsis" }
  | { n: "unary"; op: string; arg: Node }
  | { n: "bin"; op: string; left: Node; right: Node }
  | { n: "call"; callee: Node; arg: Node | null };

class ParseFailure {
  constructor(readonly at: number) {}
}

class Parser {
  pos = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok {
    return this.toks[this.pos] as Tok;
  }
  private isOp(text: string): boolean {
    const t = this.peek();
    return t.k === "op" && t.text === text;
  }
  private expectOp(text: string): void {
    if (!this.isOp(text)) throw new ParseFailure(this.pos);
    this.pos++;
  }

  parseAll(): Node {
    const e = this.expr();
    if (this.peek().k !== "end") throw new ParseFailure(this.pos);
    return e;
  }

  /** One expression from the current position (leaves `pos` after it). */
  expression(): Node {
    return this.expr();
  }

  private expr(): Node {
    let left = this.term();
    while (this.isOp("+") || this.isOp("-")) {
      const op = (this.toks[this.pos++] as Tok & { text: string }).text;
      left = { n: "bin", op, left, right: this.term() };
    }
    return left;
  }

  private term(): Node {
    let left = this.factor();
    while (this.isOp("*") || this.isOp("/") || this.isOp("//")) {
      const op = (this.toks[this.pos++] as Tok & { text: string }).text;
      left = { n: "bin", op, left, right: this.factor() };
    }
    return left;
  }

  private factor(): Node {
    if (this.isOp("+") || this.isOp("-")) {
      const op = (this.toks[this.pos++] as Tok & { text: string }).text;
      return { n: "unary", op, arg: this.factor() };
    }
    return this.power();
  }

  private power(): Node {
    const base = this.primary();
    if (this.isOp("**")) {
      this.pos++;
      return { n: "bin", op: "**", left: base, right: this.factor() };
    }
    return base;
  }

  private primary(): Node {
    let node = this.atom();
    while (this.isOp("(")) {
      this.pos++;
      const arg = this.isOp(")") ? null : this.expr();
      this.expectOp(")");
      node = { n: "call", callee: node, arg };
    }
    return node;
  }

  private atom(): Node {
    const t = this.peek();
    if (t.k === "num") {
      this.pos++;
      return { n: "num", text: t.text };
    }
    if (this.isOp("...")) {
      this.pos++;
      return { n: "ellipsis" };
    }
    if (this.isOp("(")) {
      this.pos++;
      if (this.isOp(")")) {
        this.pos++;
        return { n: "tuple" };
      }
      const inner = this.expr();
      this.expectOp(")");
      return inner;
    }
    throw new ParseFailure(this.pos);
  }
}

/** Whether an expression parsed from token `from` runs into the end of input with brackets open. */
function readsToOpenEnd(toks: Tok[], from: number): boolean {
  const p = new Parser(toks);
  p.pos = from;
  try {
    p.expression();
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
  }
  const next = toks[p.pos] as Tok;
  return next.k === "end" && next.depth > 0;
}

/** Compiles like `eval`'s parser: the AST, or the SyntaxError CPython 3.11 would report. */
export function parseExpression(src: string): Node {
  const { toks, error } = tokenize(src);
  if (src.trim() === "") throw syntaxError("invalid syntax", 0);
  try {
    const node = new Parser(toks).parseAll();
    if (error) throw error;
    return node;
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    const at = toks[e.at] as Tok;
    if (error && at.k === "end") throw error;
    const prev = toks[e.at - 1];
    // Two expressions side by side inside brackets: CPython's "forgot a comma" hint.
    const startsExpr = at.k === "num" || (at.k === "op" && at.text === "...");
    const endsExpr =
      prev !== undefined && (prev.k === "num" || (prev.k === "op" && /^(\)|\.\.\.)$/.test(prev.text)));
    if (startsExpr && endsExpr && at.depth > 0) {
      // CPython reads the second expression first; running into the end with brackets open wins.
      if (readsToOpenEnd(toks, e.at)) throw syntaxError("'(' was never closed");
      throw syntaxError("invalid syntax. Perhaps you forgot a comma?");
    }
    // A tokenizer error wins once the parser reached it, and over a generic "invalid syntax".
    if (error) throw error;
    if (at.k === "end" && at.depth > 0) throw syntaxError("'(' was never closed");
    throw syntaxError("invalid syntax");
  }
}

// ---- evaluation ----

const typeNameOf = (x: ExprValue): string => x.t;

function unsupported(op: string, a: ExprValue, b: ExprValue): PyExprError {
  return typeError(`unsupported operand type(s) for ${op}: '${typeNameOf(a)}' and '${typeNameOf(b)}'`);
}

const isNumeric = (x: ExprValue): x is { t: "int"; v: bigint } | { t: "float"; v: number } =>
  x.t === "int" || x.t === "float";

/** Python float division by floor, as CPython's `float_floor_div` computes it. */
function floatFloorDiv(vx: number, wx: number): number {
  if (wx === 0) throw zeroDivision("float floor division by zero");
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1;
    }
  }
  if (div) {
    let floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
    return floordiv;
  }
  const q = vx / wx; // copysign(0.0, vx / wx)
  return q < 0 || Object.is(q, -0) ? -0 : 0;
}

function floatPow(iv: number, iw: number): ExprValue {
  if (iw === 0) return flt(1);
  if (iv === 1) return flt(1);
  if (iv === 0 && iw < 0) throw zeroDivision("0.0 cannot be raised to a negative power");
  if (iv < 0 && Number.isFinite(iw) && iw !== Math.floor(iw)) return COMPLEX;
  const r = iv ** iw;
  if (!Number.isFinite(r) && Number.isFinite(iv) && Number.isFinite(iw)) {
    throw overflow("(34, 'Numerical result out of range')");
  }
  return flt(r);
}

/** Bits beyond which an exact int power is refused (CPython would grind through it). */
const MAX_POW_BITS = 1_000_000;

function intPow(a: bigint, b: bigint): ExprValue {
  if (b < 0n) return floatPow(intToFloat(a), intToFloat(b));
  const absA = a < 0n ? -a : a;
  if (absA > 1n && BigInt(absA.toString(2).length) * b > BigInt(MAX_POW_BITS)) {
    throw new Error("calculate: integer power too large to evaluate");
  }
  return int(a ** b);
}

const SAFE = 2n ** 53n;
const bitLength = (x: bigint): number => (x === 0n ? 0 : x.toString(2).length);

/** Python `int / int`: the correctly rounded quotient, also for ints beyond 2^53. */
function intTrueDivide(a: bigint, b: bigint): number {
  const absA = a < 0n ? -a : a;
  const absB = b < 0n ? -b : b;
  if (absA <= SAFE && absB <= SAFE) return Number(a) / Number(b);
  // Keep at least 60 quotient bits plus a sticky bit, so Number() rounds once, to nearest-even.
  const shift = bitLength(absA) - bitLength(absB) - 60;
  const num = shift < 0 ? absA << BigInt(-shift) : absA;
  const den = shift > 0 ? absB << BigInt(shift) : absB;
  const q = num / den;
  const sticky = num % den === 0n ? 0n : 1n;
  const x = Number((q << 1n) | sticky) * 2 ** (shift - 1);
  if (!Number.isFinite(x)) throw overflow("integer division result too large for a float");
  return a < 0n !== b < 0n ? -x : x;
}

function floorDivInt(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function binary(op: string, a: ExprValue, b: ExprValue): ExprValue {
  if (a.t === "tuple" || b.t === "tuple" || a.t === "ellipsis" || b.t === "ellipsis")
    return sequenceOp(op, a, b);
  if (a.t === "complex" || b.t === "complex") {
    if (op === "//") throw unsupported(op, a, b);
    if (op === "/" && isNumeric(b) && asFloat(b) === 0) throw zeroDivision("complex division by zero");
    return COMPLEX;
  }
  if (!isNumeric(a) || !isNumeric(b)) throw unsupported(op, a, b);
  if (a.t === "int" && b.t === "int") {
    switch (op) {
      case "+":
        return int(a.v + b.v);
      case "-":
        return int(a.v - b.v);
      case "*":
        return int(a.v * b.v);
      case "//":
        if (b.v === 0n) throw zeroDivision("integer division or modulo by zero");
        return int(floorDivInt(a.v, b.v));
      case "/":
        if (b.v === 0n) throw zeroDivision("division by zero");
        return flt(intTrueDivide(a.v, b.v));
      default:
        return intPow(a.v, b.v);
    }
  }
  const x = asFloat(a);
  const y = asFloat(b);
  switch (op) {
    case "+":
      return flt(x + y);
    case "-":
      return flt(x - y);
    case "*":
      return flt(x * y);
    case "/":
      if (y === 0) throw zeroDivision("float division by zero");
      return flt(x / y);
    case "//":
      return flt(floatFloorDiv(x, y));
    default:
      return floatPow(x, y);
  }
}

/** Operators with the empty tuple or the ellipsis: concatenation/repetition or TypeError. */
function sequenceOp(op: string, a: ExprValue, b: ExprValue): ExprValue {
  if (op === "+" && a.t === "tuple") {
    if (b.t === "tuple") return a;
    throw typeError(`can only concatenate tuple (not "${typeNameOf(b)}") to tuple`);
  }
  if (op === "*" && (a.t === "tuple" || b.t === "tuple")) {
    const other = a.t === "tuple" ? b : a;
    if (other.t === "int") return { t: "tuple" };
    throw typeError(`can't multiply sequence by non-int of type '${typeNameOf(other)}'`);
  }
  throw unsupported(op, a, b);
}

function evaluate(node: Node): ExprValue {
  switch (node.n) {
    case "num":
      return node.text.includes(".") ? flt(Number(node.text)) : int(BigInt(node.text));
    case "tuple":
      return { t: "tuple" };
    case "ellipsis":
      return { t: "ellipsis" };
    case "unary": {
      const v = evaluate(node.arg);
      if (v.t === "int") return int(node.op === "-" ? -v.v : v.v);
      if (v.t === "float") return flt(node.op === "-" ? -v.v : v.v);
      if (v.t === "complex") return COMPLEX;
      throw typeError(`bad operand type for unary ${node.op}: '${typeNameOf(v)}'`);
    }
    case "bin": {
      const left = evaluate(node.left);
      const right = evaluate(node.right);
      return binary(node.op, left, right);
    }
    case "call": {
      const callee = evaluate(node.callee);
      if (node.arg !== null) evaluate(node.arg);
      throw typeError(`'${typeNameOf(callee)}' object is not callable`);
    }
  }
}

/** `eval(src)` for the restricted alphabet; throws PyExprError with Python's text. */
export function evalExpression(src: string): ExprValue {
  return evaluate(parseExpression(src));
}
