/** The curated requirement set in `requirements/` verifies, and every scanned candidate was reviewed. */

import { describe, expect, it } from "vitest";
import { DOMAINS } from "../../../../src/domains/registry.ts";
import { BUILTIN_REQUIREMENTS_DIR } from "../../../../src/graders/structured/folders.ts";
import { verifyRequirementSet } from "../../../../src/graders/structured/requirements/check-all.ts";
import { coverageReport } from "../../../../src/graders/structured/requirements/coverage.ts";
import { DATA_DIR } from "../../../helpers/data.ts";

const CURATED = [DOMAINS.airline, DOMAINS.retail, DOMAINS.telecom, DOMAINS.banking_knowledge];

describe("the curated requirement set", () => {
  it("verifies against the task data", () => {
    const r = verifyRequirementSet({ dir: BUILTIN_REQUIREMENTS_DIR, dataDir: DATA_DIR });
    expect(r.problems).toEqual([]);
    expect(r.rules).toBeGreaterThan(40);
  });

  it("covers or rejects every scanned candidate of every curated task version", () => {
    const report = coverageReport(DATA_DIR, BUILTIN_REQUIREMENTS_DIR, CURATED);
    expect(report.problems).toEqual([]);
    expect(report.unreviewed).toEqual([]);
    expect(report.rows.map((r) => `${r.domain}/${r.task_version}`)).toEqual([
      "airline/head",
      "airline/v0.2.0_f8de30c",
      "retail/head",
      "retail/v0.2.0_f8de30c",
      "telecom/head",
      "telecom/head/tasks_small",
      "telecom/v0.2.0_f8de30c",
      "banking_knowledge/head",
    ]);
    for (const row of report.rows) {
      expect(row.stale, `${row.domain} ${row.task_version}`).toBe(0);
      expect(row.covered + row.rejected).toBe(row.candidates);
    }
  });
});
