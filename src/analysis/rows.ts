/** What the analyses read from the store: rows of SQL, with its values bound as parameters. */
import type { CellValue } from "../store/schema.ts";
import type { VerdictStore } from "../store/store.ts";

/**
 * Rows of `sql` with `params` bound to `$1…`, as plain JSON values: BIGINT counts become numbers (they
 * are far below 2^53 here).
 */
export async function rows<T = Record<string, unknown>>(
  store: VerdictStore,
  sql: string,
  params: readonly CellValue[] = [],
): Promise<T[]> {
  return (await table(store, sql, params)).rows as T[]; // the caller names the row type of its own query
}

/** The rows and the column names (known even when there are no rows). */
export async function table(
  store: VerdictStore,
  sql: string,
  params: readonly CellValue[] = [],
): Promise<{ columns: string[]; rows: Record<string, unknown>[] }> {
  const reader = await store.conn.runAndReadAll(sql, [...params]);
  const data = reader.getRowObjectsJS().map((r) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(r)) out[k] = typeof v === "bigint" ? Number(v) : v;
    return out;
  });
  return { columns: reader.columnNames(), rows: data };
}
