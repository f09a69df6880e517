/**
 * Statistics of ABBA rounds (base, head, head, base), the order `bench --compare` runs in: on a shared
 * machine the second of two back-to-back runs read slower in 6 of 7 pairs, so a fixed order biases
 * the ratio. A round's ratio is the mean of its two log ratios; rounds are averaged with a Student t
 * interval.
 */

/** Two-sided 95% Student t quantiles (t.ppf(0.975, df)) for df = 1…30; beyond that, the normal's. */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export const t975 = (df: number): number => (df < 1 ? Number.NaN : (T975[df - 1] ?? 1.96));

/** One ABBA round of one measurement: base, head, head, base. */
export interface AbbaRound {
  readonly base: readonly [number, number];
  readonly head: readonly [number, number];
}

export interface AbbaRatio {
  readonly rounds: number;
  /** Head against base as a fraction (0.05 = 5% more); the 95% interval around it. */
  readonly change: number;
  readonly low: number;
  readonly high: number;
  /** `within noise` when the interval holds 0; needs two rounds for an interval at all. */
  readonly verdict: "slower" | "faster" | "within noise" | "one round: no interval";
}

export function abbaRatio(rounds: readonly AbbaRound[]): AbbaRatio {
  const logs = rounds.map(
    (r) => (Math.log(r.head[0]) + Math.log(r.head[1]) - Math.log(r.base[0]) - Math.log(r.base[1])) / 2,
  );
  const n = logs.length;
  if (n === 0) throw new Error("abbaRatio: no rounds");
  const mean = logs.reduce((a, b) => a + b, 0) / n;
  const change = Math.exp(mean) - 1;
  if (n === 1)
    return { rounds: 1, change, low: Number.NaN, high: Number.NaN, verdict: "one round: no interval" };
  const sd = Math.sqrt(logs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const half = (t975(n - 1) * sd) / Math.sqrt(n);
  const low = Math.exp(mean - half) - 1;
  const high = Math.exp(mean + half) - 1;
  const verdict = low > 0 ? "slower" : high < 0 ? "faster" : "within noise";
  return { rounds: n, change, low, high, verdict };
}
