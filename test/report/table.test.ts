/** Number formatting in the HTML and Markdown reports: a value that rounds to zero never prints as "-0.0%". */
import { describe, expect, it } from "vitest";
import { num, pct } from "../../src/report/table.ts";

describe("pct and num", () => {
  it("print a tiny negative (a Wilson bound's rounding error) as zero", () => {
    expect(pct(-1e-17)).toBe("0.0%");
    expect(pct(-0)).toBe("0.0%");
    expect(pct(-0.0004)).toBe("0.0%");
    expect(num(3)(-1e-17)).toBe("0.000");
  });

  it("keep real negatives and ordinary values", () => {
    expect(pct(-0.25)).toBe("-25.0%");
    expect(pct(0.886)).toBe("88.6%");
    expect(pct(null)).toBe("–");
    expect(num(1)(-1.25)).toBe("-1.3");
  });
});
