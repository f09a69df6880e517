/**
 * The DuckDB verdict store. Each graded file is written in one transaction (bulk rows through
 * DuckDB appenders) with its `files` row, so a killed run leaves either all of a file or none of
 * it, and a re-run skips exactly the files already committed.
 */
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { type CellValue, ddl, type Row, TABLES, type TableName } from "./schema.ts";

export class StoreError extends Error {
  override readonly name = "StoreError";
}

export type FileBatch = Partial<Record<TableName, Row[]>>;

export class VerdictStore {
  private constructor(
    private readonly instance: DuckDBInstance,
    readonly conn: DuckDBConnection,
    readonly path: string,
  ) {}

  static async open(path: string, opts: { readOnly?: boolean } = {}): Promise<VerdictStore> {
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, opts.readOnly ? { access_mode: "READ_ONLY" } : {});
    } catch (e) {
      const msg = (e as Error).message;
      if (/lock/i.test(msg)) {
        throw new StoreError(
          `${path} is locked by another process (is another tau-rescore run using it?): ${firstLine(msg)}`,
        );
      }
      throw new StoreError(`cannot open ${path}: ${firstLine(msg)}`);
    }
    const conn = await instance.connect();
    const store = new VerdictStore(instance, conn, path);
    if (!opts.readOnly) for (const name of Object.keys(TABLES) as TableName[]) await conn.run(ddl(name));
    return store;
  }

  /** Files already committed for a run (their rows are complete). */
  async committedFiles(runId: string): Promise<Set<string>> {
    const r = await this.conn.runAndReadAll("SELECT file_id FROM files WHERE run_id = $1", [runId]);
    return new Set(r.getRowsJson().map((row) => String(row[0])));
  }

  async query<T = Record<string, unknown>>(sql: string, params: CellValue[] = []): Promise<T[]> {
    const r = await this.conn.runAndReadAll(sql, params);
    return r.getRowObjectsJson() as T[];
  }

  /** Writes one file's rows and its `files` row atomically. */
  writeFile(fileRow: Row, batch: FileBatch): Promise<void> {
    return this.writeFiles([{ fileRow, batch }]);
  }

  /**
   * Writes several files in one transaction: each file's rows and its `files` row commit
   * together, so after a crash every file is either complete or absent (and is re-done).
   */
  async writeFiles(files: readonly { readonly fileRow: Row; readonly batch: FileBatch }[]): Promise<void> {
    if (files.length === 0) return;
    const byTable = new Map<TableName, Row[]>();
    for (const f of files) {
      for (const [table, rows] of Object.entries(f.batch) as [TableName, Row[]][]) {
        const list = byTable.get(table) ?? [];
        for (const r of rows) list.push(r);
        byTable.set(table, list);
      }
    }
    await this.conn.run("BEGIN TRANSACTION");
    try {
      for (const [table, rows] of byTable) if (rows.length > 0) await this.append(table, rows);
      await this.append(
        "files",
        files.map((f) => f.fileRow),
      );
      await this.conn.run("COMMIT");
    } catch (e) {
      await this.conn.run("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }

  async append(table: TableName, rows: readonly Row[]): Promise<void> {
    const appender = await this.conn.createAppender(table);
    try {
      const columns = TABLES[table].columns;
      for (const row of rows) {
        if (row.length !== columns.length)
          throw new StoreError(`${table}: row has ${row.length} values for ${columns.length} columns`);
        for (let i = 0; i < columns.length; i++)
          appendCell(appender, (columns[i] as { type: string }).type, row[i] as CellValue);
        appender.endRow();
      }
    } finally {
      appender.closeSync();
    }
  }

  close(): void {
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

const APPENDERS: Record<string, (a: DuckDBAppender, v: Exclude<CellValue, null>) => void> = {
  VARCHAR: (a, v) => a.appendVarchar(String(v)),
  INTEGER: (a, v) => a.appendInteger(Number(v)),
  BIGINT: (a, v) => a.appendBigInt(BigInt(v as number)),
  DOUBLE: (a, v) => a.appendDouble(Number(v)),
  BOOLEAN: (a, v) => a.appendBoolean(Boolean(v)),
};

function appendCell(a: DuckDBAppender, type: string, v: CellValue): void {
  if (v === null) {
    a.appendNull();
    return;
  }
  const append = APPENDERS[type];
  if (append === undefined) throw new StoreError(`unsupported column type ${type}`);
  append(a, v);
}

const firstLine = (s: string) => s.split("\n")[0] ?? s;
