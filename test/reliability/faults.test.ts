/**
 * Faults in the corpus itself: a truncated file, a file that is not UTF-8, an empty file, a folder named
 * `x.json`, a symlink loop, a dangling symlink. Each ends in the `files` table (status `error`, with a
 * reason) and the `errors` table, and the run goes on to grade the good file next to them.
 *
 * (kill -9 then re-run, a locked DuckDB file: `test/pipeline/run.test.ts`; a read-only or full output
 * folder: `test/analysis/report.test.ts`.)
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VerdictStore } from "../../src/store/store.ts";
import { cliInProcess } from "../helpers/cli-in-process.ts";
import { CORPUS_DIR } from "../helpers/data.ts";
import { smallExperiment } from "../helpers/small-run.ts";

const GOOD = "sierra-tau2-bench__pr170-tau2-trace/e2e_retail_baseline.json";

interface FileRow {
  path: string;
  status: string;
  error: string | null;
}

describe("faults in the corpus", () => {
  it("records every unreadable entry with a reason and grades the rest", async () => {
    const { experiment, dir } = smallExperiment([GOOD]);
    const corpus = join(dir, "corpus");
    const good = readFileSync(join(CORPUS_DIR, GOOD));
    writeFileSync(join(corpus, "truncated.json"), good.subarray(0, Math.floor(good.length / 2)));
    // A Latin-1 "é" inside a string: lenient decoding would grade a silently altered text.
    const inString = good.indexOf('"content": "') + '"content": "'.length;
    writeFileSync(
      join(corpus, "latin1.json"),
      Buffer.concat([good.subarray(0, inString), Buffer.from([0xe9]), good.subarray(inString)]),
    );
    writeFileSync(join(corpus, "empty.json"), "");
    mkdirSync(join(corpus, "folder.json"));
    writeFileSync(join(corpus, "folder.json", "inner.txt"), "not json");
    symlinkSync("loop.json", join(corpus, "loop.json"));
    symlinkSync("missing-target.json", join(corpus, "dangling.json"));
    symlinkSync(".", join(corpus, "cycle")); // a folder link back to its parent: walked once
    const db = join(dir, "faults.duckdb");
    const r = await cliInProcess(["run", experiment, "--db", db]);
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
    // The run finishes; exit code 1 only says that some inputs could not be graded.
    expect(r.stderr).toMatch(/files: 7 \(0 already done, 0 not trajectories, 6 unreadable now\)/);
    expect(r.status).toBe(1);

    const store = await VerdictStore.open(db, { readOnly: true });
    try {
      const files = await store.query<FileRow>("SELECT path, status, error FROM files ORDER BY path");
      const byPath = new Map(files.map((f) => [f.path, f]));
      const expectError = (path: string, reason: RegExp) => {
        const row = byPath.get(path);
        expect(row, `${path} has a files row`).toBeDefined();
        expect(row?.status).toBe("error");
        expect(row?.error ?? "").toMatch(reason);
      };
      expectError("truncated.json", /truncated/);
      expectError("latin1.json", /UTF-8/);
      expectError("empty.json", /empty file/);
      expectError("folder.json", /directory|EISDIR/i);
      expectError("loop.json", /symbolic link|ELOOP/i);
      expectError("dangling.json", /no such file|ENOENT/i);
      expect(byPath.get(GOOD)?.status).toBe("graded");
      // The folder link is not walked again: the good file appears once.
      expect(files.filter((f) => f.path.endsWith("e2e_retail_baseline.json"))).toHaveLength(1);
      const errors = await store.query<{ n: number }>(
        "SELECT count(*)::INTEGER AS n FROM errors WHERE stage = 'load' AND message <> ''",
      );
      expect(errors[0]?.n).toBe(6);
      const sims = await store.query<{ n: number }>(
        "SELECT count(*)::INTEGER AS n FROM simulations WHERE graded",
      );
      expect(sims[0]?.n).toBe(1);
    } finally {
      store.close();
    }
  });
});
