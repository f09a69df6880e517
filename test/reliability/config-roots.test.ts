/** Experiment paths stay inside their declared roots: no `..`, no absolute path, no symlink leading out. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExperimentError, insideRoot, loadExperiment } from "../../src/experiments/config.ts";

function layout() {
  const dir = mkdtempSync(join(tmpdir(), "tr-roots-"));
  const root = join(dir, "root");
  const outside = join(dir, "outside");
  mkdirSync(join(root, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.json"), "[]");
  symlinkSync(outside, join(root, "to-outside"));
  symlinkSync(join(outside, "secret.json"), join(root, "secret-link.json"));
  symlinkSync(join(root, "sub"), join(root, "to-sub"));
  return { dir, root, outside };
}

describe("insideRoot", () => {
  const { root, outside } = layout();

  it.each([
    ["..", "a parent"],
    ["../outside/secret.json", "a sibling through .."],
    ["sub/../../outside", ".. after a folder"],
    [join(outside, "secret.json"), "an absolute path"],
    ["/etc/passwd", "an absolute system path"],
  ])("refuses %s (%s)", (path) => {
    expect(() => insideRoot(root, path, "corpus path")).toThrow(/escapes its root/);
  });

  it.each([
    ["to-outside", "a folder symlink"],
    ["to-outside/secret.json", "a file below a folder symlink"],
    ["secret-link.json", "a file symlink"],
    ["to-outside/not-yet.duckdb", "an output that does not exist yet, below a symlink"],
  ])("refuses %s (%s) that leads outside", (path) => {
    expect(() => insideRoot(root, path, "output")).toThrow(/through a symbolic link/);
  });

  it.each([".", "sub", "sub/new.duckdb", "to-sub", "to-sub/x.json", "..data", "sub/./x"])(
    "accepts %s inside the root",
    (path) => {
      expect(insideRoot(root, path, "corpus path")).toBe(join(root, path));
    },
  );

  it("accepts a root that is itself reached through a symlink", () => {
    const { dir, root: real } = layout();
    const alias = join(dir, "alias");
    symlinkSync(real, alias);
    expect(insideRoot(alias, "sub", "corpus path")).toBe(join(alias, "sub"));
  });

  it("applies to every path of an experiment config", () => {
    const { dir, root } = layout();
    const file = join(dir, "exp.json");
    const config = (over: Record<string, unknown>) =>
      JSON.stringify({
        name: "x",
        roots: { corpus: "root", data: "root", output: "root", repo: "root" },
        corpus: ["."],
        output: "o.duckdb",
        ...over,
      });
    for (const over of [
      { corpus: ["to-outside"] },
      { output: "to-outside/o.duckdb" },
      { data_dir: "../outside" },
      { requirements_dir: "/etc" },
    ]) {
      writeFileSync(file, config(over));
      expect(() => loadExperiment(file), JSON.stringify(over)).toThrow(ExperimentError);
    }
    writeFileSync(file, config({}));
    expect(loadExperiment(file).corpusPaths).toEqual([root]);
  });
});
