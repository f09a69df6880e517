/**
 * Authoring traps: verifying one fixture FILE verifies FILE (wherever it is), an unedited scaffold rule
 * ("TODO: ...") fails, and a `__proto__` scope key is an error, never dropped (dropped, the rule would
 * apply to every call). `verifyRequirementSet` decides; `requirements verify` prints its problems and
 * exits 1 on any (test/cli/requirements.test.ts).
 */

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILTIN_REQUIREMENTS_DIR } from "../../../../src/graders/structured/folders.ts";
import { verifyRequirementSet } from "../../../../src/graders/structured/requirements/check-all.ts";
import { DATA_DIR } from "../../../helpers/data.ts";

const SOURCE = "requirements/airline/head/10.json";
/** What `requirements verify FILE` verifies: FILE, against the built-in set. */
const verify = (file: string) =>
  verifyRequirementSet({ dir: BUILTIN_REQUIREMENTS_DIR, dataDir: DATA_DIR, only: [file] });

/** The fixture, changed by `edit`, written to a temp file outside the requirements dir. */
function draft(edit: (text: string) => string): string {
  const file = join(mkdtempSync(join(tmpdir(), "tr-req-")), "10.json");
  writeFileSync(file, edit(readFileSync(SOURCE, "utf8")));
  return file;
}

const lines = (r: ReturnType<typeof verify>) =>
  r.problems.map((p) => `${p.fixture}\t${p.ruleId ?? "-"}\t${p.message}`).join("\n");

describe("verifying one fixture FILE", () => {
  it("verifies that file: a good copy passes", () => {
    const r = verify(draft((t) => t));
    expect(r.problems, lines(r)).toEqual([]);
    expect(r).toMatchObject({ rules: 2, facts: 1, fixtures: 1 });
  });

  it("verifies that file: invalid JSON fails, naming it", () => {
    const file = draft((t) => t.slice(0, 40));
    const r = verify(file);
    expect(r.problems.length).toBeGreaterThan(0);
    expect(lines(r)).toContain(file);
    expect(lines(r)).toMatch(/invalid JSON/);
  });

  it("fails an unedited scaffold rule", () => {
    const r = verify(
      draft((t) =>
        t.replace(/"rule": "[^"]*"/, '"rule": "TODO: state the prohibition (tools hinted: none)"'),
      ),
    );
    expect(r.problems.length).toBeGreaterThan(0);
    expect(lines(r)).toMatch(/airline\.10\.no_date_change_without_business\t.*TODO/);
  });

  it("refuses a __proto__ scope key", () => {
    const r = verify(draft((t) => t.replace('"cabin": "economy"', '"__proto__": "economy"')));
    expect(r.problems.length).toBeGreaterThan(0);
    expect(lines(r)).toMatch(/action_preconditions\[0\]\.arguments.*__proto__/);
  });
});
