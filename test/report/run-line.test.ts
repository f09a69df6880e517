/**
 * The report says what its run graded with: summary.json's `run.sources`, and the run line of
 * report.html, name the requirements, policies and corrections the run read, each layer with its files.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeReport } from "../../src/analysis/export.ts";
import { registerRunCommand } from "../../src/cli/commands/run.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../src/graders/structured/folders.ts";
import type { ReportData } from "../../src/report/data.ts";
import { runLine } from "../../src/report/honesty.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { TOOL_VERSION } from "../../src/util/package.ts";
import { runInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";

const CURATED = `tau-rescore ${TOOL_VERSION}'s curated set`;

describe("the run's sources", () => {
  it("are in summary.json and on report.html's run line", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-sources-"));
    mkdirSync(join(dir, "corpus"));
    cpSync(
      join(CORPUS_DIR, "sierra-tau2-bench__pr170-tau2-trace/e2e_airline_baseline.json"),
      join(dir, "corpus/a.json"),
    );
    const rel = "airline/head/2.json";
    mkdirSync(join(dir, "requirements/airline/head"), { recursive: true });
    writeFileSync(join(dir, "requirements", rel), readFileSync(join(BUILTIN_REQUIREMENTS_DIR, rel)));
    writeFileSync(
      join(dir, "experiment.json"),
      JSON.stringify({ name: "p", corpus: ["corpus"], output: "p.duckdb", corrections: true }),
    );
    const r = await runInProcess(registerRunCommand, ["run", join(dir, "experiment.json")], {
      TAU2_DATA_DIR: DATA_DIR,
    });
    expect(r.code, r.stderr).toBe(0);
    const store = await VerdictStore.open(join(dir, "p.duckdb"));
    try {
      const summary = await writeReport(store, join(dir, "report"));
      const sources = [
        expect.stringMatching(
          new RegExp(
            `^requirements: project ${dir}/requirements/ \\(1 file\\) over ${CURATED} \\(\\d+ files\\)$`,
          ),
        ),
        expect.stringMatching(new RegExp(`^policies: ${CURATED} \\(\\d+ files\\)$`)),
        `corrections: ${CURATED} (1 file)`,
      ];
      expect(summary.run?.sources).toEqual(sources);
      const written = JSON.parse(readFileSync(join(dir, "report/summary.json"), "utf8"));
      expect(written.run.sources).toEqual(sources);
      const line = String(
        runLine({
          summary,
          meta: { writtenAt: "2024-01-01T00:00:00.000Z", reviewsSource: null, allConversations: false },
        } as unknown as ReportData),
      );
      const text = line.replaceAll("&#39;", "'");
      expect(text).toContain(`requirements: project ${dir}/requirements/ (1 file) over ${CURATED}`);
      expect(text).toContain(`corrections: ${CURATED} (1 file)`);
    } finally {
      store.close();
    }
  });
});
