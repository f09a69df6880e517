/**
 * docs/reference/store.md lists every table of a store and every analysis view with its columns, as
 * DuckDB reports them: compared here with a live store, so the page cannot drift from the schema.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installAnalyses } from "../../src/analysis/run.ts";
import { PROBE_CENSUS_DDL } from "../../src/probes/census-store.ts";
import { VerdictStore } from "../../src/store/store.ts";

const DOC = readFileSync("docs/reference/store.md", "utf8");

/** `### \`name\`` sections under `## Tables`: each column line `| \`col\` | TYPE | yes? |`. */
function documentedTables(md: string): Map<string, string[]> {
  const part = md.slice(md.indexOf("\n## Tables"), md.indexOf("\n## Views"));
  const out = new Map<string, string[]>();
  for (const section of part.split(/\n### /).slice(1)) {
    const name = /^`([a-z_]+)`/.exec(section)?.[1];
    if (name === undefined) continue;
    const cols = [...section.matchAll(/^\| `([a-z_0-9]+)` \| ([A-Z0-9[\]]+) \| (yes)? ?\|$/gm)].map(
      (m) => `${m[1]} ${m[2]}${m[3] === undefined ? "" : " null"}`,
    );
    out.set(name, cols);
  }
  return out;
}

/** Rows of the view tables under `## Views`: `| \`name\` (materialized)? | \`col\` TYPE, … |`. */
function documentedViews(md: string): Map<string, string[]> {
  const part = md.slice(md.indexOf("\n## Views"));
  const out = new Map<string, string[]>();
  for (const m of part.matchAll(/^\| `([a-z_0-9]+)`(?: \(materialized\))? \| (.*) \|$/gm)) {
    const cols = [...(m[2] ?? "").matchAll(/`([a-z_0-9]+)` ([A-Z0-9[\]()]+)/g)].map((c) => `${c[1]} ${c[2]}`);
    out.set(m[1] as string, cols);
  }
  return out;
}

describe("docs/reference/store.md", () => {
  let store: VerdictStore;
  const live = { tables: new Map<string, string[]>(), views: new Map<string, string[]>() };

  beforeAll(async () => {
    store = await VerdictStore.open(join(mkdtempSync(join(tmpdir(), "tr-doc-")), "s.duckdb"));
    // The census writes its table into a store of its own choosing (`probe --census --db`).
    await store.conn.run(PROBE_CENSUS_DDL);
    await installAnalyses(store);
    const cols = await store.query<{
      catalog: string;
      name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
    }>(
      `SELECT table_catalog AS catalog, table_name AS name, column_name, data_type, is_nullable
       FROM information_schema.columns ORDER BY table_catalog, table_name, ordinal_position`,
    );
    for (const c of cols) {
      const temp = c.catalog === "temp";
      // A materialized view is a TEMP table of its name, built from the view `<name>_definition`.
      if (temp && c.name.endsWith("_definition")) continue;
      const name = c.name;
      const target = temp ? live.views : live.tables;
      const line = temp
        ? `${c.column_name} ${c.data_type}`
        : `${c.column_name} ${c.data_type}${c.is_nullable === "YES" ? " null" : ""}`;
      target.set(name, [...(target.get(name) ?? []), line]);
    }
  });
  afterAll(() => store?.close());

  it("lists every table of a store with its columns, types and nullability, in order", () => {
    const doc = documentedTables(DOC);
    expect([...doc.keys()].sort()).toEqual([...live.tables.keys()].sort());
    for (const [name, cols] of live.tables) expect(doc.get(name), name).toEqual(cols);
  });

  it("lists every analysis view with its columns and types, in order", () => {
    const doc = documentedViews(DOC);
    expect([...doc.keys()].sort()).toEqual([...live.views.keys()].sort());
    for (const [name, cols] of live.views) expect(doc.get(name), name).toEqual(cols);
  });
});
