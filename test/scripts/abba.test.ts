import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { abbaRatio, t975 } from "../../scripts/abba.ts";

describe("abbaRatio", () => {
  it("reads a constant factor exactly, with no spread", () => {
    const r = abbaRatio([
      { base: [1, 2], head: [1.1, 2.2] },
      { base: [3, 3], head: [3.3, 3.3] },
    ]);
    expect(r.change).toBeCloseTo(0.1, 12);
    expect(r.low).toBeCloseTo(0.1, 12);
    expect(r.high).toBeCloseTo(0.1, 12);
    expect(r.verdict).toBe("slower");
  });

  it("averages the two log ratios of a round: an order effect cancels", () => {
    // The second run of a pair reads 10% slower whichever tree it is: head runs 2nd and 3rd.
    const r = abbaRatio([
      { base: [1, 1.1], head: [1.1, 1] },
      { base: [2, 2.2], head: [2.2, 2] },
    ]);
    expect(r.change).toBeCloseTo(0, 12);
    expect(r.verdict).toBe("within noise");
  });

  it("is faster when every round is, and within noise when the rounds disagree", () => {
    expect(
      abbaRatio([
        { base: [1, 1], head: [0.9, 0.92] },
        { base: [1, 1], head: [0.91, 0.9] },
        { base: [1, 1], head: [0.9, 0.9] },
      ]).verdict,
    ).toBe("faster");
    expect(
      abbaRatio([
        { base: [1, 1], head: [1.2, 1.2] },
        { base: [1, 1], head: [0.8, 0.8] },
      ]).verdict,
    ).toBe("within noise");
  });

  it("gives no interval for one round", () => {
    const r = abbaRatio([{ base: [1, 1], head: [2, 2] }]);
    expect(r.change).toBeCloseTo(1, 12);
    expect(r.verdict).toBe("one round: no interval");
  });

  it("swapping base and head inverts the change and its interval", () => {
    const side = fc.tuple(
      fc.double({ min: 0.5, max: 2, noNaN: true }),
      fc.double({ min: 0.5, max: 2, noNaN: true }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.record({ base: side, head: side }), { minLength: 2, maxLength: 8 }),
        (rounds) => {
          const r = abbaRatio(rounds);
          const s = abbaRatio(rounds.map((x) => ({ base: x.head, head: x.base })));
          expect((1 + r.change) * (1 + s.change)).toBeCloseTo(1, 9);
          expect((1 + r.low) * (1 + s.high)).toBeCloseTo(1, 9);
          expect(r.low).toBeLessThanOrEqual(r.change + 1e-12);
          expect(r.high).toBeGreaterThanOrEqual(r.change - 1e-12);
        },
      ),
    );
  });
});

describe("t975", () => {
  it("matches published two-sided 95% quantiles", () => {
    // scipy.stats.t.ppf(0.975, df)
    expect(t975(1)).toBeCloseTo(12.706, 3);
    expect(t975(5)).toBeCloseTo(2.571, 3);
    expect(t975(10)).toBeCloseTo(2.228, 3);
    expect(t975(30)).toBeCloseTo(2.042, 3);
    expect(t975(200)).toBeCloseTo(1.96, 3);
  });
});
