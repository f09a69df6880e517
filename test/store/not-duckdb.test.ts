/** A store path that holds something else (`report --db x.json`) is refused by name. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VerdictStore } from "../../src/store/store.ts";

describe("opening a file that is not a DuckDB store", () => {
  it.each([{ readOnly: true }, { readOnly: false }])("(%o) says so, naming the file", async (opts) => {
    const file = join(mkdtempSync(join(tmpdir(), "tr-notdb-")), "x.json");
    writeFileSync(file, '{"simulations": []}');
    await expect(VerdictStore.open(file, opts)).rejects.toThrow(
      `${file} is not a DuckDB file (a store written by \`tau-rescore run\`)`,
    );
  });
});
