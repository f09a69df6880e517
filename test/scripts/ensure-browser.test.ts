/**
 * The test command's browser step (scripts/ensure-browser.sh) against a fake apt-get: it may add
 * chromium, never upgrade what the machine has, and says what it does before it does it.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
  it("always counts skipped tests in its closing line", () => {
    expect(text).toMatch(/passed, \$\{r\.numFailedTests \+ brokenFiles\} failed, \$\{skipped\} skipped/);
  });
});
