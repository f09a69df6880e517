/** The report's CSV files: a header even for an empty analysis, and no spreadsheet formulas. */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvCell } from "../../src/analysis/csv.ts";
import { writeReport } from "../../src/analysis/export.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { syntheticStore } from "./synthetic-store.ts";

describe("csvCell", () => {
  it.each([
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ["+1+cmd", "'+1+cmd"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tx", "'\tx"],
    ["\rx", `"'\rx"`],
  ])("prefixes %j with a quote", (text, cell) => expect(csvCell(text)).toBe(cell));

  it("leaves numbers, ordinary text and empty cells as they are", () => {
    expect(csvCell(-0.25)).toBe("-0.25");
    expect(csvCell("gpt-4.1 [agent]")).toBe("gpt-4.1 [agent]");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell(null)).toBe("");
  });
});

describe("report CSV files", () => {
  let store: VerdictStore;
  let out = "";
  beforeAll(async () => {
    store = await syntheticStore([
      { model: "=cmd|' /C calc'!A0", task: "1", tau3: true, structured: false },
      { model: "@evil", task: "1", tau3: true, structured: true },
    ]);
    out = join(mkdtempSync(join(tmpdir(), "tr-csv-")), "report");
    await writeReport(store, out);
  });
  afterAll(() => store.close());

  const csv = (view: string) => readFileSync(join(out, `${view}.csv`), "utf8").split("\n");

  it("writes the header of an analysis with no rows", () => {
    const lines = csv("error_list");
    expect(lines[0]).toMatch(/^[a-z_]+(,[a-z_]+)+$/);
    expect(lines.slice(1).filter((l) => l !== "")).toEqual([]);
  });

  it("never starts a cell with a formula character", () => {
    const flips = csv("flips");
    const model = flips[0]?.split(",").indexOf("model") ?? -1;
    expect(model).toBeGreaterThanOrEqual(0);
    expect(flips[1]).toContain(",'=cmd|' /C calc'!A0 [agent],");
    const ranking = readFileSync(join(out, "flip_rates_by_model.csv"), "utf8");
    expect(ranking).toContain("'@evil [agent]");
    expect(ranking).not.toMatch(/(^|,)[=+@]/m);
  });
});
