/**
 * A store's DuckDB has an explicit memory limit and a spill folder of its own, a query beyond them fails
 * as one line, and a running query can be stopped (what every command's interrupt relies on).
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/cli/errors.ts";
import { outOfMemoryError } from "../../src/cli/memory-limit.ts";
import { stopOpenStores } from "../../src/store/open-stores.ts";
import { defaultMemoryLimit, memoryLimitBytes } from "../../src/store/resources.ts";
import { VerdictStore } from "../../src/store/store.ts";

const tmp = () => mkdtempSync(join(tmpdir(), "tr-resources-"));

async function settings(store: VerdictStore): Promise<{ memory: number; temp: string }> {
  const [row] = await store.query<{ memory: string; temp: string }>(
    "SELECT current_setting('memory_limit') AS memory, current_setting('temp_directory') AS temp",
  );
  return { memory: memoryLimitBytes(row?.memory ?? "") ?? Number.NaN, temp: row?.temp ?? "" };
}

describe("a store's DuckDB", () => {
  it("has the memory limit it was opened with, and spills beside a writable store", async () => {
    const path = join(tmp(), "w.duckdb");
    const store = await VerdictStore.open(path, { memoryLimit: "512MiB" });
    try {
      expect(await settings(store)).toEqual({ memory: 512 * 2 ** 20, temp: `${path}.tmp` });
    } finally {
      store.close();
    }
  });

  it("without a limit, has the default (at most 4 GiB, not DuckDB's 80% of memory)", async () => {
    const store = await VerdictStore.open(join(tmp(), "d.duckdb"));
    try {
      const { memory } = await settings(store);
      expect(memory).toBeCloseTo(memoryLimitBytes(defaultMemoryLimit()) as number, -6);
      expect(memory).toBeLessThanOrEqual(4 * 2 ** 30);
    } finally {
      store.close();
    }
  });

  it("read-only, spills into a folder of its own under the temp dir, removed on close", async () => {
    const path = join(tmp(), "r.duckdb");
    (await VerdictStore.open(path)).close();
    const a = await VerdictStore.open(path, { readOnly: true, memoryLimit: "64MiB" });
    const b = await VerdictStore.open(path, { readOnly: true, memoryLimit: "64MiB" });
    try {
      const [ta, tb] = [(await settings(a)).temp, (await settings(b)).temp];
      expect(ta.startsWith(tmpdir())).toBe(true);
      expect(ta).not.toBe(tb);
      // A sort four times the limit spills.
      await a.query("SELECT count(*) FROM (SELECT range::VARCHAR AS s FROM range(8000000) ORDER BY s DESC)");
      expect(existsSync(ta)).toBe(true);
    } finally {
      a.close();
      b.close();
    }
    expect(existsSync(a.tempDirectory)).toBe(false);
  });

  it("fails a query beyond its limit with DuckDB's out-of-memory error, which the CLI says in one line", async () => {
    const store = await VerdictStore.open(join(tmp(), "m.duckdb"), { memoryLimit: "16MiB" });
    try {
      const e = await store.query("SELECT list(range) FROM range(50000000)").catch((x: unknown) => x);
      const line = outOfMemoryError(e);
      expect(line).toBeInstanceOf(InputError);
      expect(line?.message).toMatch(/^DuckDB ran out of memory \(.*16\.0 MiB used\)\); raise --memory-limit/);
      expect(line?.message).not.toContain("\n");
      expect(outOfMemoryError(new Error("Binder Error: no such column"))).toBeNull();
    } finally {
      store.close();
    }
  });

  it("stops a running query when asked, and the store goes on answering", async () => {
    const store = await VerdictStore.open(join(tmp(), "i.duckdb"));
    try {
      const running = store
        .query("SELECT count(*) FROM range(1000000000) a, range(1000) b WHERE a.range + b.range = 7")
        .then(
          () => "finished",
          (e: unknown) => e,
        );
      // As a signal handler would, until the query has stopped (an interrupt before it starts is lost).
      let outcome: unknown;
      for (let i = 0; i < 200 && outcome === undefined; i++) {
        stopOpenStores();
        outcome = await Promise.race([running, new Promise((r) => setTimeout(r, 50))]);
      }
      expect(String(outcome)).toMatch(/Interrupted/);
      expect(await store.query("SELECT 42 AS n")).toEqual([{ n: 42 }]);
    } finally {
      store.close();
    }
  }, 30_000);
});

describe("memory limits", () => {
  it("are sizes DuckDB reads, of at least 16 MiB", () => {
    expect(memoryLimitBytes("4GB")).toBe(4e9);
    expect(memoryLimitBytes("512 MiB")).toBe(512 * 2 ** 20);
    expect(memoryLimitBytes("1.5gb")).toBe(1.5e9);
    for (const bad of ["4", "lots", "-1GB", "4 GB extra", "1MB", ""])
      expect(memoryLimitBytes(bad)).toBeNull();
  });
});
