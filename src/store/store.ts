/**
 * The DuckDB verdict store. Each graded file is written in one transaction (bulk rows through
 * DuckDB appenders) with its `files` row, so a killed run leaves either all of a file or none of
 * it, and a re-run skips exactly the files already committed. A store written by another schema
 * version is refused on open with a message that says what to do.
 */

import { closeSync, existsSync, openSync, readSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { EXIT_INPUT_FAILED, RescoreError } from "../util/errors.ts";
import { MIGRATION_STEPS } from "./migrations.ts";
import { type OpenStore, trackStore, untrackStore } from "./open-stores.ts";
import { defaultMemoryLimit } from "./resources.ts";
import {
  type CellValue,
  type ColumnType,
  ddl,
  type PackedBatch,
  type PackedRow,
  packRows,
  type RowOf,
  SCHEMA_VERSION,
  TABLES,
  type TableName,
} from "./schema.ts";

export class StoreError extends RescoreError {
  override readonly code = "store";
  override readonly exitStatus = EXIT_INPUT_FAILED;

  override readonly name = "StoreError";
}

/** Another process holds the file in a way this open conflicts with (a writer, or readers when writing). */
export class StoreLockedError extends StoreError {}

export interface StoreOptions {
  readonly readOnly?: boolean;
  /** DuckDB's memory_limit, such as "4GB" (checked by `memoryLimitBytes`); default `defaultMemoryLimit()`. */
  readonly memoryLimit?: string | undefined;
}

/** Where a store spills beyond its memory limit, and whether this process may remove the folder. */
interface TempDir {
  readonly path: string;
  readonly ours: boolean;
}

let tempSeq = 0;

/**
 * A writable store spills next to its file (DuckDB's own default; the write lock keeps it to one
 * process). Read-only opens may share a file, so each gets its own folder under the system's temp.
 */
function tempDirFor(path: string, readOnly: boolean): TempDir {
  if (!readOnly) {
    const dir = `${path}.tmp`;
    return { path: dir, ours: !existsSync(dir) };
  }
  const dir = join(tmpdir(), `tau-rescore-${process.pid}-${++tempSeq}.tmp`);
  rmSync(dir, { recursive: true, force: true }); // a dead process with this pid left it
  return { path: dir, ours: true };
}

export class VerdictStore {
  /** What stops this store's query as the process exits (`stopOpenStores`). */
  private readonly stopper: OpenStore = {
    interrupt: () => this.conn.interrupt(),
    removeTemp: () => this.removeTemp(),
  };

  private constructor(
    private readonly instance: DuckDBInstance,
    readonly conn: DuckDBConnection,
    readonly path: string,
    private readonly temp: TempDir,
    /** Opened read-only: nothing can be written into it (TEMP tables can). */
    readonly readOnly: boolean,
  ) {}

  static async open(path: string, opts: StoreOptions = {}): Promise<VerdictStore> {
    refuseNonDuckDb(path);
    const readOnly = opts.readOnly === true;
    const temp = tempDirFor(path, readOnly);
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path, {
        ...(readOnly ? { access_mode: "READ_ONLY" } : {}),
        memory_limit: opts.memoryLimit ?? defaultMemoryLimit(),
        temp_directory: temp.path,
      });
    } catch (e) {
      const msg = (e as Error).message;
      if (/lock/i.test(msg)) {
        throw new StoreLockedError(
          `${path} is locked by another process (is another tau-rescore run using it?): ${firstLine(msg)}`,
        );
      }
      throw new StoreError(`cannot open ${path}: ${firstLine(msg)}`);
    }
    const conn = await instance.connect();
    const store = new VerdictStore(instance, conn, path, temp, readOnly);
    trackStore(store.stopper);
    try {
      await store.checkSchema(readOnly);
    } catch (e) {
      store.close();
      throw e;
    }
    return store;
  }

  /** Refuses a store of another layout; creates the tables in a new one (unless read-only). */
  private async checkSchema(readOnly: boolean): Promise<void> {
    const found = await this.conn.runAndReadAll(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' AND table_catalog = current_database()",
    );
    const tables = new Set(found.getRowsJson().map((r) => String(r[0])));
    let version: string | null = null;
    if (tables.has("store_meta")) {
      const r = await this.conn.runAndReadAll("SELECT value FROM store_meta WHERE key = 'schema_version'");
      version = (r.getRowsJson()[0]?.[0] as string | undefined) ?? null;
    } else if (tables.has("runs")) {
      version = "1"; // written before the schema was versioned
    }
    // A writable store of an older schema that only lacks additions is brought up to date in place,
    // one step per version: a kill mid-upgrade leaves the step's work and its version bump both or neither.
    if (!readOnly)
      for (const step of MIGRATION_STEPS) {
        if (version !== String(step.from)) continue;
        const next = String(step.from + 1);
        await this.transaction(async () => {
          await step.apply(this.conn);
          await this.conn.run("UPDATE store_meta SET value = $1 WHERE key = 'schema_version'", [next]);
        });
        version = next;
      }
    if (version !== null && version !== String(SCHEMA_VERSION)) {
      const older = Number(version) < SCHEMA_VERSION;
      throw new StoreError(
        `${this.path} was written by ${older ? "an older" : "a newer"} tau-rescore (store schema ${version}; this version reads schema ${SCHEMA_VERSION}). ` +
          (older
            ? `Re-grade into a new file (tau-rescore run <experiment> --db NEW.duckdb), or delete ${this.path} and run again.`
            : "Use the tau-rescore version that wrote it, or re-grade into a new file with --db."),
      );
    }
    if (readOnly) return;
    for (const name of Object.keys(TABLES) as TableName[]) await this.conn.run(ddl(name));
    if (version === null)
      await this.conn.run("INSERT INTO store_meta VALUES ('schema_version', $1) ON CONFLICT DO NOTHING", [
        String(SCHEMA_VERSION),
      ]);
  }

  /** The `files` rows of a run: what identifies each stored file (path and content). */
  async storedFiles(runId: string): Promise<StoredFile[]> {
    return this.query<StoredFile>("SELECT file_id, path, status, error FROM files WHERE run_id = $1", [
      runId,
    ]);
  }

  async query<T = Record<string, unknown>>(sql: string, params: CellValue[] = []): Promise<T[]> {
    const r = await this.conn.runAndReadAll(sql, params);
    return r.getRowObjectsJson() as T[];
  }

  /**
   * Writes several files in one transaction: each file's rows and its `files` row commit
   * together, so after a crash every file is either complete or absent (and is re-done).
   */
  async writeFiles(
    files: readonly {
      readonly fileRow: RowOf<"files">;
      readonly batch: PackedBatch;
      /** Another version of this path is stored in the run: its rows are deleted first. */
      readonly replaces?: boolean;
    }[],
  ): Promise<void> {
    if (files.length === 0) return;
    const byTable = new Map<TableName, PackedRow[]>();
    for (const f of files) {
      for (const table of Object.keys(f.batch) as TableName[]) {
        const list = byTable.get(table) ?? [];
        for (const r of f.batch[table] as PackedRow[]) list.push(r);
        byTable.set(table, list);
      }
    }
    await this.transaction(async () => {
      for (const f of files) if (f.replaces === true) await this.deleteOtherVersions(f.fileRow);
      for (const [table, rows] of byTable) if (rows.length > 0) await this.appendPacked(table, rows);
      await this.append(
        "files",
        files.map((f) => f.fileRow),
      );
    });
  }

  /** Runs `work` in one transaction: all of it commits, or none of it. */
  private async transaction(work: () => Promise<void>): Promise<void> {
    await this.conn.run("BEGIN TRANSACTION");
    try {
      await work();
      await this.conn.run("COMMIT");
    } catch (e) {
      await this.conn.run("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }

  /**
   * Deletes every row of the run's files that `select` picks (SQL with one `file_id` column over
   * `params`). The ids are fixed first: deleting rows must not change which files the query finds.
   */
  private async deleteFiles(runId: string, select: string, params: CellValue[]): Promise<void> {
    await this.conn.run(`CREATE OR REPLACE TEMP TABLE doomed_files AS ${select}`, params);
    const doomed = "SELECT file_id FROM doomed_files";
    // Per-simulation tables first: their keys are found through `simulations`.
    for (const t of BY_SIM_KEY)
      await this.conn.run(
        `DELETE FROM ${t} WHERE run_id = $1 AND sim_key IN (SELECT sim_key FROM simulations WHERE run_id = $1 AND file_id IN (${doomed}))`,
        [runId],
      );
    for (const t of [...BY_FILE_ID, "files"])
      await this.conn.run(`DELETE FROM ${t} WHERE run_id = $1 AND file_id IN (${doomed})`, [runId]);
    await this.conn.run("DROP TABLE doomed_files");
  }

  /**
   * Deletes every row of the run's files where a live judge failed on τ³'s verdict, so the next run
   * grades them again: a fixed judge is asked again, not remembered as unknown.
   */
  async dropFilesWithJudgeFailures(runId: string): Promise<number> {
    const failed = `SELECT DISTINCT s.file_id FROM verdicts v JOIN simulations s USING (run_id, sim_key)
      WHERE v.run_id = $1 AND v.grader = 'tau3' AND v.judge_failure IS NOT NULL`;
    const n = Number(
      (await this.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM (${failed})`, [runId]))[0]?.n ?? 0,
    );
    if (n > 0) await this.transaction(() => this.deleteFiles(runId, failed, [runId]));
    return n;
  }

  /** Deletes the rows of every other version of `row.path` in its run (a rewritten or fixed file). */
  private async deleteOtherVersions(row: RowOf<"files">): Promise<void> {
    await this.deleteFiles(
      row.run_id,
      "SELECT file_id FROM files WHERE run_id = $1 AND path = $2 AND file_id <> $3",
      [row.run_id, row.path, row.file_id],
    );
  }

  /** A run's submissions, read again on every invocation (the files beside them may have changed). */
  async replaceSubmissions(
    runId: string,
    rows: {
      readonly submissions: readonly RowOf<"submissions">[];
      readonly results: readonly RowOf<"submission_results">[];
      readonly files: readonly RowOf<"submission_files">[];
    },
  ): Promise<void> {
    await this.transaction(async () => {
      for (const t of ["submissions", "submission_results", "submission_files"] as const)
        await this.conn.run(`DELETE FROM ${t} WHERE run_id = $1`, [runId]);
      await this.append("submissions", rows.submissions);
      await this.append("submission_results", rows.results);
      await this.append("submission_files", rows.files);
    });
  }

  async append<T extends TableName>(table: T, rows: readonly RowOf<T>[]): Promise<void> {
    await this.appendPacked(table, packRows(table, rows));
  }

  /** Rows as values in column order (`packRows`). */
  async appendPacked(table: TableName, rows: readonly PackedRow[]): Promise<void> {
    const appender = await this.conn.createAppender(table);
    try {
      const columns = TABLES[table].columns;
      const cells = CELL_WRITERS[table];
      for (const row of rows) {
        for (let i = 0; i < cells.length; i++) {
          const v = row[i];
          if (v === undefined)
            throw new StoreError(
              `${table}: a row has no value for column ${(columns[i] as { name: string }).name}`,
            );
          (cells[i] as CellWriter)(appender, v);
        }
        appender.endRow();
      }
    } finally {
      appender.closeSync();
    }
  }

  /** Where DuckDB spills beyond `memoryLimit`. */
  get tempDirectory(): string {
    return this.temp.path;
  }

  close(): void {
    untrackStore(this.stopper);
    this.conn.closeSync();
    this.instance.closeSync();
    this.removeTemp();
  }

  /** DuckDB removes its spill files on close; a folder it made here goes too, also on a hard exit. */
  private removeTemp(): void {
    if (this.temp.ours) rmSync(this.temp.path, { recursive: true, force: true });
  }
}

export interface StoredFile {
  readonly file_id: string;
  readonly path: string;
  readonly status: string;
  readonly error: string | null;
}

const hasColumn = (t: TableName, name: string): boolean =>
  (TABLES[t].columns as readonly { name: string }[]).some((col) => col.name === name);
const RUN_TABLES = (Object.keys(TABLES) as TableName[]).filter(
  (t) => t !== "files" && hasColumn(t, "run_id"),
);
/** Run tables whose rows belong to a file: by its id, or through its simulations' keys. */
const BY_FILE_ID = RUN_TABLES.filter((t) => hasColumn(t, "file_id"));
const BY_SIM_KEY = RUN_TABLES.filter((t) => !hasColumn(t, "file_id") && hasColumn(t, "sim_key"));

type CellWriter = (a: DuckDBAppender, v: CellValue) => void;

const WRITERS: Record<ColumnType, CellWriter> = {
  VARCHAR: (a, v) => (v === null ? a.appendNull() : a.appendVarchar(String(v))),
  INTEGER: (a, v) => (v === null ? a.appendNull() : a.appendInteger(Number(v))),
  BIGINT: (a, v) => (v === null ? a.appendNull() : a.appendBigInt(BigInt(v as number))),
  DOUBLE: (a, v) => (v === null ? a.appendNull() : a.appendDouble(Number(v))),
  BOOLEAN: (a, v) => (v === null ? a.appendNull() : a.appendBoolean(Boolean(v))),
};

/** Each table's cell writers in column order, chosen once rather than per cell. */
const CELL_WRITERS = Object.fromEntries(
  (Object.keys(TABLES) as TableName[]).map((t) => [t, TABLES[t].columns.map((c) => WRITERS[c.type])]),
) as Record<TableName, CellWriter[]>;

/** A file that exists and is not a DuckDB database (`report --db x.json`) is named, never opened. */
function refuseNonDuckDb(path: string): void {
  const head = Buffer.alloc(12);
  let n: number;
  try {
    const fd = openSync(path, "r");
    try {
      n = readSync(fd, head, 0, 12, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return; // absent or unreadable: DuckDB's own message says which
  }
  // DuckDB's file header carries "DUCK" at byte 8; an empty file is one DuckDB is about to create.
  if (n > 0 && head.subarray(8, 12).toString("latin1") !== "DUCK")
    throw new StoreError(`${path} is not a DuckDB file (a store written by \`tau-rescore run\`)`);
}

const firstLine = (s: string) => s.split("\n")[0] ?? s;
