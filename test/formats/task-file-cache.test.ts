/** Task files are parsed once per content stamp: an unchanged file gives the same tasks, a changed one is read again. */
import { mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadTaskFile } from "../../src/formats/tasks.ts";

const task = (id: string) => ({ id, user_scenario: { instructions: "do it" }, evaluation_criteria: null });

describe("loadTaskFile", () => {
  it("reuses the parse of an unchanged file and re-reads a changed one", () => {
    const path = join(mkdtempSync(join(tmpdir(), "tr-tasks-")), "tasks.json");
    writeFileSync(path, JSON.stringify([task("1")]));
    const first = loadTaskFile(path);
    expect(loadTaskFile(path)).toBe(first);
    writeFileSync(path, JSON.stringify([task("1"), task("2")]));
    // Same second, maybe same size: the stamp also carries the modification time.
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    const changed = loadTaskFile(path);
    expect(changed).not.toBe(first);
    expect(changed.map((t) => t.id)).toEqual(["1", "2"]);
  });
});
