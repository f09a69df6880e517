/** Hostile model names (`javascript:`, ` onerror=`, markup) never stop `report --html`, and never run. */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerdictStore } from "../../src/store/store.ts";
import { type SyntheticSim, syntheticStore } from "../analysis/synthetic-store.ts";
import { writeHtmlReport } from "../helpers/html-report.ts";

const HOSTILE = [
  "javascript:alert(1)",
  "x onerror=alert(1)",
  '"><svg onload=alert(1)>',
  "url(http://evil/x)",
];

/** [name, value] of every attribute of every tag in an HTML or SVG text (text between tags is skipped). */
function attributes(markup: string): [string, string][] {
  const out: [string, string][] = [];
  for (const tag of markup.matchAll(
    /<[a-zA-Z][\w:-]*((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g,
  ))
    for (const a of (tag[1] ?? "").matchAll(/\s+([^\s=/>]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g))
      out.push([(a[1] ?? "").toLowerCase(), a[2] ?? ""]);
  return out;
}

describe("report --html with hostile model names", () => {
  let store: VerdictStore;
  let out = "";
  let charts: readonly { name: string; svg: string }[] = [];
  beforeAll(async () => {
    const sims: SyntheticSim[] = HOSTILE.flatMap((model, m) =>
      ["1", "2", "3"].map((task, t) => ({ model, task, tau3: (m + t) % 2 === 0, structured: t === 0 })),
    );
    store = await syntheticStore(sims, { minTaskCoverage: 0.5, bootstrapSamples: 20 });
    out = join(mkdtempSync(join(tmpdir(), "tr-hostile-")), "report");
    ({ charts } = await writeHtmlReport(store, out));
  }, 60_000);
  afterAll(() => store.close());

  it("writes the CSV files, the charts, report.html and report.md", () => {
    for (const f of ["flips.csv", "ranking.csv", "report.html", "report.md", "summary.json"])
      expect(existsSync(join(out, f)), f).toBe(true);
    expect(charts.length).toBeGreaterThan(0);
    expect(charts.some((c) => c.svg.includes("javascript:alert(1)"))).toBe(true); // the name is shown, as text
  });

  it("leaves no event handler, script or external reference in the page or the SVG files", () => {
    const page = readFileSync(join(out, "report.html"), "utf8");
    expect(attributes(page).filter(([a]) => a.startsWith("on"))).toEqual([]);
    for (const c of charts) {
      const svg = readFileSync(join(out, "charts", `${c.name}.svg`), "utf8");
      const bad = attributes(svg).filter(
        ([a, v]) =>
          a.startsWith("on") ||
          a.endsWith("href") ||
          (/url\(\s*['"]?(?!#)|javascript:/i.test(v) && a !== "aria-label"),
      );
      expect(bad).toEqual([]);
      expect(svg).not.toMatch(/<(script|foreignObject|iframe|image|a)\b/i);
    }
  });
});
