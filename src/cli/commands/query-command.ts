import { installAnalyses } from "../../analysis/run.ts";
import { importGraderModules } from "../../experiments/grader-modules.ts";
import { exhausted } from "../../store/resources.ts";
import type { VerdictStore } from "../../store/store.ts";
import { RescoreError } from "../../util/errors.ts";
import { UsageError } from "../errors.ts";
import { onInterrupt } from "../interrupt.ts";
import type { CommandIo } from "../io.ts";
import { openStoreReadOnly, overlayReviewsFile, type StoreSources, storeSources } from "../report-store.ts";
import { experimentFor } from "../reviews-source.ts";
import { formatResult, QUERY_FORMATS, type QueryFormat, type QueryResult, resultOf } from "./query-output.ts";

export interface QueryOptions {
  db?: string;
  experiment?: string;
  reviews?: string;
  run?: string;
  format: string;
  memoryLimit?: string;
}

function formatOf(format: string): QueryFormat {
  const f = QUERY_FORMATS.find((x) => x === format);
  if (f === undefined)
    throw new UsageError(`query: unsupported --format ${format} (${QUERY_FORMATS.join(", ")})`);
  return f;
}

/** DuckDB's message without the caret lines under the query: its first paragraph, in one line. */
const duckdbMessage = (e: Error): string =>
  (e.message.split(/\n\s*\n/)[0] ?? "")
    .replace(/\s*\n\s*/g, " ")
    .replace(/^Failed to extract statements:\s*/, "")
    .trim();

/** A failed statement as one line: a write refused, a file refused, or the SQL error. */
function queryError(e: unknown, src: StoreSources): unknown {
  // Out of memory is reported as such; this tool's own errors are one line already.
  if (!(e instanceof Error) || e instanceof RescoreError || exhausted(e) !== null) return e;
  const msg = duckdbMessage(e);
  const store = `${src.flag === "--db" ? "--db" : "the store of --experiment"} ${src.db}`;
  const write = /Cannot execute statement of type "([^"]+)".*read-only mode/.exec(msg);
  if (write !== null)
    return new UsageError(
      `query: refused: ${store} is opened read-only and a ${write[1]} statement would write to it (nothing was written)`,
    );
  if (/^Permission Error:/.test(msg))
    return new UsageError(
      `query: refused: a query reads only ${store}, not other files (${msg.replace(/^Permission Error:\s*/, "")})`,
    );
  return new UsageError(`query: ${msg}`);
}

/** Runs every statement of `sql` in order; the last one's rows are the result. */
async function runStatements(store: VerdictStore, sql: string): Promise<QueryResult> {
  const none = new UsageError("query: no SQL statement given");
  if (sql.trim() === "") throw none;
  const statements = await store.conn.extractStatements(sql).catch((e: unknown) => {
    // DuckDB extracts nothing from bare semicolons and comments, and fails without a message.
    throw e instanceof Error && e.message === "Error in native callback" ? none : e;
  });
  if (statements.count === 0) throw none;
  let last: QueryResult | null = null;
  for (let i = 0; i < statements.count; i++) {
    const prepared = await statements.prepare(i);
    last = resultOf(await prepared.runAndReadAll());
  }
  return last as QueryResult;
}

export async function queryCommand(sql: string, opts: QueryOptions, io: CommandIo): Promise<void> {
  const format = formatOf(opts.format);
  // The reviews file may name graders from the experiment's modules.
  if (opts.experiment !== undefined)
    await importGraderModules(experimentFor(opts.experiment, {}).graderModules);
  const src = storeSources("query", opts);
  const store = await openStoreReadOnly(src.db, src.memoryLimit);
  const removeHandlers = onInterrupt(
    () => store.conn.interrupt(),
    () => `${src.db} was not written`,
    io,
  );
  try {
    await overlayReviewsFile(store, src, opts.run);
    const run = await installAnalyses(store, opts.run);
    if (run === null)
      io.stderr.write(
        `tau-rescore: ${src.db} has no completed run (an interrupted run finishes when run again); the analysis views are empty\n`,
      );
    // Nothing but the store: no file written or read, no extension loaded, and no way to turn that back on.
    await store.conn.run("SET enable_external_access = false");
    await store.conn.run("SET lock_configuration = true");
    let result: QueryResult;
    try {
      result = await runStatements(store, sql);
    } catch (e) {
      throw queryError(e, src);
    }
    io.stdout.write(formatResult(result, format));
  } finally {
    removeHandlers();
    store.close();
  }
}
