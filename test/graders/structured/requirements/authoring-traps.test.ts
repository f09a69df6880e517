/**
 * Authoring traps (issue 23, item 14): `requirements verify FILE` verifies FILE (wherever it is), an
 * unedited scaffold rule ("TODO: ...") fails, and a `__proto__` scope key is an error, never dropped
 * (dropped, the rule would apply to every call).
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_DIR } from "../../../helpers/data.ts";
import { cli } from "../../../helpers/small-run.ts";

const SOURCE = "requirements/airline/head/10.json";
const verify = (file: string) => cli(["requirements", "verify", file, "--data-dir", DATA_DIR]);

/** The fixture, changed by `edit`, written to a temp file outside the requirements dir. */
function draft(edit: (text: string) => string): string {
  const file = join(mkdtempSync(join(tmpdir(), "tr-req-")), "10.json");
  writeFileSync(file, edit(readFileSync(SOURCE, "utf8")));
  return file;
}

describe("requirements verify FILE", () => {
  it("verifies that file: a good copy passes", () => {
    const r = verify(draft((t) => t));
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ok: 1 rule\(s\) in 1 fixture\(s\)/);
  });

  it("verifies that file: invalid JSON fails, naming it", () => {
    const file = draft((t) => t.slice(0, 40));
    const r = verify(file);
    expect(r.status).toBe(1);
    expect(r.stdout + r.stderr).toContain(file);
    expect(r.stdout + r.stderr).toMatch(/invalid JSON/);
  });

  it("fails an unedited scaffold rule", () => {
    const r = verify(
      draft((t) =>
        t.replace(/"rule": "[^"]*"/, '"rule": "TODO: state the prohibition (tools hinted: none)"'),
      ),
    );
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/airline\.10\.no_date_change_without_business\t.*TODO/);
  });

  it("refuses a __proto__ scope key", () => {
    const r = verify(draft((t) => t.replace('"cabin": "economy"', '"__proto__": "economy"')));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/action_preconditions\[0\]\.arguments.*__proto__/);
  });
});
