/**
 * The test command's browser step (scripts/ensure-browser.sh) against a fake apt-get: it may add
 * chromium, never upgrade what the machine has, and says what it does before it does it.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPT = join(import.meta.dirname, "../../scripts/ensure-browser.sh");

const NEW_ONLY = [
  "Inst libogg0 (1.3.5-3 Debian:12.15/oldstable [amd64])",
  "Inst chromium (150.0.7871.100-1~deb12u1 Debian:12.15/oldstable [amd64])",
].join("\n");
const WITH_UPGRADE = [
  "Inst perl [5.36.0-7+deb12u2] (5.36.0-7+deb12u3 Debian:12.15/oldstable [amd64]) []",
  NEW_ONLY,
].join("\n");

/** Runs the script with a fake `apt-get` and `id` first on PATH; returns stderr and apt-get's calls. */
function runWithFakeApt(plan: string, uid = "0"): { stderr: string; calls: string[] } {
  const dir = mkdtempSync(join(tmpdir(), "tr-fake-apt-"));
  const log = join(dir, "calls.log");
  writeFileSync(join(dir, "plan.txt"), `${plan}\n`);
  writeFileSync(
    join(dir, "apt-get"),
    `#!/bin/sh\necho "$*" >> "${log}"\ncase "$*" in *" -s "*) cat "${join(dir, "plan.txt")}";; esac\n`,
  );
  writeFileSync(join(dir, "id"), `#!/bin/sh\necho ${uid}\n`);
  chmodSync(join(dir, "apt-get"), 0o755);
  chmodSync(join(dir, "id"), 0o755);
  writeFileSync(log, "");
  const r = spawnSync("bash", [SCRIPT], {
    encoding: "utf8",
    env: { PATH: `${dir}:/usr/bin:/bin`, TAU_RESCORE_CHROMIUM: join(dir, "no-chromium") },
  });
  expect(r.status).toBe(0);
  return { stderr: r.stderr, calls: readFileSync(log, "utf8").split("\n").filter(Boolean) };
}

describe("the test command's browser step", () => {
  it("installs chromium without recommends or upgrades, and says so first", () => {
    const { stderr, calls } = runWithFakeApt(NEW_ONLY);
    const install = calls.find((c) => c.startsWith("install -y"));
    expect(install).toContain("--no-install-recommends");
    expect(install).toContain("--no-upgrade");
    expect(install?.split(" ").filter((w) => !w.startsWith("-"))).toEqual(["install", "chromium"]);
    expect(stderr).toMatch(
      /installing chromium for the report's browser test: 2 new Debian packages, no upgrades/,
    );
  });

  it("installs nothing when chromium would upgrade an installed package, and says the test is skipped", () => {
    const { stderr, calls } = runWithFakeApt(WITH_UPGRADE);
    expect(calls.some((c) => c.startsWith("install -y"))).toBe(false);
    expect(stderr).toMatch(
      /browser test will be skipped: installing chromium would upgrade 1 installed packages/,
    );
  });

  it("never calls apt-get when not root", () => {
    const { stderr, calls } = runWithFakeApt(NEW_ONLY, "1000");
    expect(calls).toEqual([]);
    expect(stderr).toMatch(/browser test will be skipped/);
  });
});

describe("scripts/test.sh", () => {
  const text = readFileSync(join(import.meta.dirname, "../../scripts/test.sh"), "utf8");
  it("reaches apt-get only through the browser step", () => {
    expect(text).not.toMatch(/apt-get/);
    expect(text).toMatch(/bash scripts\/ensure-browser\.sh/);
  });

  /**
   * Runs the test command with fake `npm`/`npx`: tsc and biome exit with the given codes, vitest writes
   * the given JSON report. Returns the closing line and the exit status.
   */
  function testCommand(tsc: number, biome: number, report: object): { line: string; status: number | null } {
    const dir = mkdtempSync(join(tmpdir(), "tr-fake-npx-"));
    writeFileSync(join(dir, "report.json"), JSON.stringify(report));
    writeFileSync(join(dir, "npm"), "#!/bin/sh\nexit 0\n");
    writeFileSync(
      join(dir, "npx"),
      [
        "#!/bin/sh",
        `case "$1" in tsc) exit ${tsc};; biome) exit ${biome};; vitest)`,
        '  for a in "$@"; do case "$a" in --outputFile.json=*) cp "' +
          join(dir, "report.json") +
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a template
          '" "${a#--outputFile.json=}";; esac; done; exit 0;;',
        "esac",
      ].join("\n"),
    );
    chmodSync(join(dir, "npm"), 0o755);
    chmodSync(join(dir, "npx"), 0o755);
    const r = spawnSync("bash", [join(import.meta.dirname, "../../scripts/test.sh")], {
      encoding: "utf8",
      env: {
        PATH: `${dir}:${dirname(process.execPath)}:/usr/bin:/bin`,
        TAU_RESCORE_CHROMIUM: process.execPath,
      },
    });
    return { line: r.stdout.trim().split("\n").at(-1) ?? "", status: r.status };
  }

  const green = {
    numPassedTests: 7,
    numFailedTests: 0,
    numPendingTests: 2,
    numTodoTests: 0,
    testResults: [],
  };

  it("closes with passed, failed and skipped counts, skipped even when zero", () => {
    expect(testCommand(0, 0, green)).toEqual({ line: "7 passed, 0 failed, 2 skipped", status: 0 });
    expect(testCommand(0, 0, { ...green, numPendingTests: 0 }).line).toBe("7 passed, 0 failed, 0 skipped");
  });

  it("fails on a typecheck or lint failure, and counts each as one", () => {
    expect(testCommand(2, 0, green)).toEqual({ line: "7 passed, 1 failed, 2 skipped", status: 1 });
    expect(testCommand(2, 1, green)).toEqual({ line: "7 passed, 2 failed, 2 skipped", status: 1 });
  });
});
