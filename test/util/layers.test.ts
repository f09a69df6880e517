/** Folders in layers: a file of a higher layer hides the same relative path below it; the rest shows through. */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { layeredFiles, layerOver } from "../../src/util/layers.ts";

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "tr-layers-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

const json = (name: string) => name.endsWith(".json");

describe("layeredFiles", () => {
  it("lists one folder as a walk of it would: names sorted, a folder's files where its name sorts", () => {
    const dir = folder({ "b.json": "", "a/z.json": "", "a.json": "", "a/b/c.json": "", "x.txt": "" });
    expect(layeredFiles(dir, json).map((f) => f.rel)).toEqual(["a/b/c.json", "a/z.json", "a.json", "b.json"]);
  });

  it("takes a file from the first layer that has its relative path; the others show through", () => {
    const curated = folder({ "airline/head/2.json": "curated 2", "airline/head/5.json": "curated 5" });
    const own = folder({ "airline/head/2.json": "own 2", "airline/head/9.json": "own 9" });
    const files = layeredFiles(layerOver(own, curated), json);
    expect(files.map((f) => [f.rel, f.layer])).toEqual([
      ["airline/head/2.json", 0],
      ["airline/head/5.json", 1],
      ["airline/head/9.json", 0],
    ]);
    expect(files[0]?.path).toBe(join(own, "airline/head/2.json"));
    expect(files[1]?.path).toBe(join(curated, "airline/head/5.json"));
  });
});

describe("layerOver", () => {
  it("is the one folder when both name it, even through a symbolic link", () => {
    const curated = folder({ "a.json": "" });
    const alias = join(mkdtempSync(join(tmpdir(), "tr-layers-")), "alias");
    symlinkSync(curated, alias);
    expect(layerOver(curated, curated)).toEqual([curated]);
    expect(layerOver(alias, curated)).toEqual([alias]);
  });

  it("puts the own folder first", () => {
    const own = folder({});
    const curated = folder({});
    expect(layerOver(own, curated)).toEqual([own, curated]);
  });
});
