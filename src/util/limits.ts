/**
 * The range of every number an experiment config, a command-line flag or an environment variable
 * accepts (docs/reference/limits.md lists them). A value outside its range is refused before anything
 * is written: a huge bootstrap or worker count would otherwise exhaust memory, and some values do not
 * fit the store's columns.
 */

export interface NumberRange {
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

const int = (min: number, max: number): NumberRange => ({ min, max, integer: true });
const num = (min: number, max: number): NumberRange => ({ min, max, integer: false });

export const LIMITS = {
  /** Replicates of the rank bootstrap: memory and time grow with replicates × tasks (measured in the docs). */
  bootstrapSamples: int(0, 20_000),
  minTaskCoverage: num(0, 1),
  /** Stored as BIGINT; JSON numbers are exact only up to 2^53 - 1. */
  seed: int(-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER),
  /** The OpenAI-compatible range. */
  judgeTemperature: num(0, 2),
  judgeConcurrency: int(1, 256),
  /** Seconds; Node's timers cannot wait longer than about 24 days. */
  judgeTimeout: num(0.001, 3600),
  judgeRetries: int(0, 10),
  reviewContext: int(0, 1000),
  /** Simulations `review sample` draws per domain: each is read whole by a person. */
  sampleSize: int(1, 10_000),
  /** Stored with each sampled review; JSON numbers are exact up to 2^53 - 1. */
  sampleSeed: int(0, Number.MAX_SAFE_INTEGER),
  /** `view --port`; 0 takes a free one. */
  viewPort: int(0, 65535),
  workers: int(1, 64),
  commitFiles: int(1, 10_000),
  progressMs: num(0, 3_600_000),
  /**
   * Seconds one simulation may take in a grader from `grader_modules` before it is an error row: the
   * slowest built-in grader needs milliseconds on the largest corpus simulation.
   */
  graderModuleTimeout: num(0.001, 600),
  /** Comparisons one experiment declares: `report --html` memory grows with them (measured in the docs). */
  comparisons: int(1, 32),
  /** Characters of a name that becomes part of a file name (grader id, comparison name). */
  nameLength: int(1, 64),
} as const satisfies Record<string, NumberRange>;

export const inRange = (r: NumberRange, n: number): boolean =>
  Number.isFinite(n) && n >= r.min && n <= r.max && (!r.integer || Number.isInteger(n));

/** `an integer from 0 to 20000`. */
export const rangeText = (r: NumberRange): string =>
  `${r.integer ? "an integer" : "a number"} from ${r.min} to ${r.max}`;

/** A number as it is; text (a flag's, or a string in JSON) quoted. */
const shown = (value: unknown): string =>
  typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));

/** `must be an integer from 0 to 20000 (got 2000000000)`. */
export const outOfRange = (r: NumberRange, got: unknown): string =>
  `must be ${rangeText(r)} (got ${shown(got)})`;

/** How an integer is written on a command line: decimal digits (`1e3`, `0x10` and `1.0` are not). */
const DECIMAL_INTEGER = /^-?[0-9]+$/;
/** How any other number is: decimal, with an optional fraction. */
const DECIMAL_NUMBER = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/;

/** `a grader id may take at most 64 characters (got 300)`. */
export const nameTooLong = (what: string, got: unknown): string =>
  `${what} may take at most ${LIMITS.nameLength.max} characters (got ${String(got).length})`;

/** A number from text (a flag or an environment variable), or null when it is not one in range. */
export function parseInRange(r: NumberRange, text: string): number | null {
  const t = text.trim();
  if (!(r.integer ? DECIMAL_INTEGER : DECIMAL_NUMBER).test(t)) return null;
  const n = Number(t);
  return inRange(r, n) ? n : null;
}
