/** Python number formatting and arithmetic helpers that differ from JavaScript. */
import { PyFloat, type PyValue } from "./value.ts";

/** Python `repr(float)`: shortest round-trip digits laid out with Python's thresholds. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (x === Number.POSITIVE_INFINITY) return "inf";
  if (x === Number.NEGATIVE_INFINITY) return "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const exp = x.toExponential(); // e.g. "-1.2345e+21", shortest digits
  const eIdx = exp.indexOf("e");
  const sign = exp[0] === "-" ? "-" : "";
  const mantissa = exp.slice(sign.length, eIdx);
  const digits = mantissa.replace(".", "");
  const e = Number(exp.slice(eIdx + 1));
  if (e < -4 || e >= 16) {
    const frac = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const es = Math.abs(e).toString().padStart(2, "0");
    return `${sign}${frac}e${e < 0 ? "-" : "+"}${es}`;
  }
  if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
  if (digits.length <= e + 1) return `${sign}${digits}${"0".repeat(e + 1 - digits.length)}.0`;
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

/** Python `str()` of a number-like value (`str(2)` = "2", `str(2.0)` = "2.0", `str(True)` = "True"). */
export function pyNumStr(v: number | bigint | PyFloat | boolean): string {
  if (typeof v === "boolean") return v ? "True" : "False";
  if (v instanceof PyFloat) return floatRepr(v.v);
  return v.toString();
}

const TWO = 2n;

/** Decomposes a finite double into an exact `mantissa * 2^exponent` with an integer mantissa. */
function decompose(x: number): { m: bigint; e: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) {
    e = -1074;
  } else {
    m |= 1n << 52n;
    e = biased - 1075;
  }
  return { m, e };
}

/**
 * Python `round(x, ndigits)` for a float: round-half-even on the exact binary value, then the
 * nearest double to the rounded decimal (what CPython's correctly rounded dtoa path does).
 */
export function pyRoundFloat(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const negative = x < 0;
  const { m, e } = decompose(Math.abs(x));
  if (e >= 0) return x; // an integer-valued double has nothing to round
  const scale = 10n ** BigInt(ndigits);
  const num = m * scale;
  const den = TWO ** BigInt(-e);
  let q = num / den;
  const r = num - q * den;
  const twice = r * TWO;
  if (twice > den || (twice === den && q % TWO === 1n)) q += 1n;
  const result = Number(`${q}e-${ndigits}`);
  return negative ? -result : result;
}

/** Python `round(v, n)`: an int stays an int, a float gives a float. */
export function pyRound(v: number | PyFloat, ndigits: number): number | PyFloat {
  if (v instanceof PyFloat) return new PyFloat(pyRoundFloat(v.v, ndigits));
  return v;
}

type Num = number | PyFloat | boolean;
const val = (v: Num): number => (v instanceof PyFloat ? v.v : typeof v === "boolean" ? (v ? 1 : 0) : v);
const isFloat = (a: Num, b: Num) => a instanceof PyFloat || b instanceof PyFloat;

/** Python `a + b` over int/float (int + int stays int). */
export const pyAdd = (a: Num, b: Num): number | PyFloat =>
  isFloat(a, b) ? new PyFloat(val(a) + val(b)) : val(a) + val(b);
export const pySub = (a: Num, b: Num): number | PyFloat =>
  isFloat(a, b) ? new PyFloat(val(a) - val(b)) : val(a) - val(b);
export const pyMul = (a: Num, b: Num): number | PyFloat =>
  isFloat(a, b) ? new PyFloat(val(a) * val(b)) : val(a) * val(b);
export const pyNeg = (a: Num): number | PyFloat => (a instanceof PyFloat ? new PyFloat(-a.v) : -val(a));
export const pyAbs = (a: Num): number | PyFloat =>
  a instanceof PyFloat ? new PyFloat(Math.abs(a.v)) : Math.abs(val(a));

/** True when `v` is a Python int or float (bool counts, as in Python arithmetic). */
export const isNum = (v: PyValue | undefined): v is number | PyFloat | boolean =>
  typeof v === "number" || typeof v === "boolean" || v instanceof PyFloat;
export const numOf = (v: number | PyFloat | boolean): number => val(v);
