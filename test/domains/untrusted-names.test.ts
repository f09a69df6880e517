/**
 * Names read from data are names, never paths: a corpus file's domain, an experiment's `domain_as`, a
 * submission's trajectory file, a `--domain-as` pair. A name that would reach another folder is refused
 * before any path is built, naming the file and the key, and a variant's overlay stays below its root.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { overlayDataDir, variantOf } from "../../src/domains/variants.ts";
import { readSubmission } from "../../src/formats/submission.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { overlayRoot, removeVariantOverlays } from "../../src/util/overlay-root.ts";
import { expectRefused } from "../experiments/refused.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR, DATA_DIR } from "../helpers/data.ts";
import { writeExperiment } from "../helpers/small-run.ts";

const SOURCE = join(CORPUS_DIR, "sierra-tau2-bench__pr448-whissle/airline_run1.json");

/**
 * A data dir `<dir>/data` whose `domains/airline` is the shared one, and a hostile `variant.json` two
 * folders up from `domains/`, where `domains/../../x2` reaches.
 */
function hostileLayout() {
  const dir = mkdtempSync(join(tmpdir(), "tr-names-"));
  const data = join(dir, "data");
  mkdirSync(join(data, "domains"), { recursive: true });
  symlinkSync(join(DATA_DIR, "domains", "airline"), join(data, "domains", "airline"));
  mkdirSync(join(dir, "x2"));
  writeFileSync(join(dir, "x2", "variant.json"), JSON.stringify({ extends: "airline" }));
  writeFileSync(join(dir, "x2", "policy.md"), "# a policy the corpus file chose for itself\n");
  const source = JSON.parse(readFileSync(SOURCE, "utf8"));
  const info = {
    ...source.info,
    environment_info: { ...source.info.environment_info, domain_name: "../../x2" },
  };
  const file = join(dir, "evil.json");
  writeFileSync(file, JSON.stringify({ ...source, info }));
  return { dir, data, file };
}

describe("a corpus file's domain name", () => {
  it("that is a relative path fails the file, naming it and the key, and builds no path", async () => {
    const { dir, data, file } = hostileLayout();
    const r = await cliInProcess(["grade", file, "--data-dir", data, "--grader", "tau3,structured"]);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`${file}: at info.environment_info.domain_name: `);
    expect(r.stderr).toContain("a name may not hold / or \\");
    expect(r.status).not.toBe(0);
    // Nothing was linked beside the hostile folder or in the data dir.
    expect(readdirSync(join(dir, "x2")).sort()).toEqual(["policy.md", "variant.json"]);
    expect(readdirSync(join(data, "domains"))).toEqual(["airline"]);
  });

  it("is an unreadable file in a run, with the key", async () => {
    const { dir, file } = hostileLayout();
    mkdirSync(join(dir, "corpus"));
    writeFileSync(join(dir, "corpus", "evil.json"), readFileSync(file));
    const experiment = writeExperiment(join(dir, "x.json"), { data_dir: "data" }, { data: "." });
    const r = await cliInProcess(["run", experiment]);
    expect(r.status, r.stderr).toBe(1); // some input could not be read
    const store = await VerdictStore.open(join(dir, "x.duckdb"), { readOnly: true });
    try {
      const rows = await store.query<{ path: string; status: string; error: string }>(
        "SELECT path, status, error FROM files",
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.path).toBe("evil.json");
      expect(rows[0]?.status).not.toBe("ok");
      expect(rows[0]?.error).toMatch(/at info\.environment_info\.domain_name: .*a name may not hold/);
      expect(await store.query("SELECT * FROM verdicts")).toEqual([]);
    } finally {
      store.close();
    }
  });
});

describe("variant names", () => {
  it("a name that is not one segment is refused before the data dir is read", () => {
    const { data } = hostileLayout();
    expect(() => variantOf(data, "../../x2")).toThrow(/domain name: "..\/..\/x2": a name may not hold/);
  });

  it("an overlay is built below this process's overlay root and removed with it", () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-overlay-"));
    mkdirSync(join(dir, "domains", "air_v"), { recursive: true });
    symlinkSync(join(DATA_DIR, "domains", "airline"), join(dir, "domains", "airline"));
    writeFileSync(join(dir, "domains", "air_v", "variant.json"), JSON.stringify({ extends: "airline" }));
    const v = variantOf(dir, "air_v");
    expect(v).not.toBeNull();
    const overlay = overlayDataDir(dir, v as NonNullable<typeof v>);
    expect(overlay.startsWith(`${overlayRoot()}/`)).toBe(true);
    expect(lstatSync(join(overlay, "domains", "air_v")).isSymbolicLink()).toBe(true);
    removeVariantOverlays();
    expect(existsSync(overlayRoot())).toBe(false);
    // Asked again, it is built again rather than remembered.
    expect(existsSync(overlayDataDir(dir, v as NonNullable<typeof v>))).toBe(true);
    removeVariantOverlays();
  });

  it("--domain-as refuses a path for a name", async () => {
    const r = await cliInProcess(["grade", SOURCE, "--data-dir", DATA_DIR, "--domain-as", "../x=airline"]);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe("tau-rescore: --domain-as ../x=airline: a name may not hold / or \\");
  });

  it("an experiment's domain_as refuses a path for a name, naming the key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-names-exp-"));
    mkdirSync(join(dir, "corpus"));
    const file = writeExperiment(join(dir, "x.json"), { domain_as: { "../../x2": "airline" } });
    await expectRefused(file, /domain_as.*a name may not hold \/ or \\/);
  });
});

describe("a submission's trajectory file", () => {
  it("that reaches another folder makes the submission an error naming the key", () => {
    const dir = mkdtempSync(join(tmpdir(), "tr-names-sub-"));
    const path = join(dir, "submission.json");
    writeFileSync(
      path,
      JSON.stringify({
        model_name: "M",
        trajectory_files: { airline: "../other/airline.json" },
        results: {},
      }),
    );
    const read = readSubmission(path);
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.error).toMatch(/trajectory_files\.airline.*a name may not hold \/ or \\/);
  });
});
