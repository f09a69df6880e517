/**
 * `tau-rescore query`'s three outputs of one result: an aligned table for the terminal, CSV, and a JSON
 * array of row objects. Each ends with a newline.
 */
import {
  type DuckDBResultReader,
  DuckDBTypeId,
  type DuckDBValueConverter,
  type Json,
  JsonDuckDBValueConverter,
} from "@duckdb/node-api";
import { terminalSafe } from "../../formats/terminal-text.ts";

export const QUERY_FORMATS = ["table", "csv", "json"] as const;
export type QueryFormat = (typeof QUERY_FORMATS)[number];

/** A cell as JSON holds it: numbers, strings, booleans, null, and lists and structs of them. */
export type Cell = Json;

/** The result's column names and its rows, cells in column order. */
export interface QueryResult {
  readonly columns: readonly string[];
  /** The column names made unique (`a`, `a:1`): the keys of a JSON row. */
  readonly keys: readonly string[];
  /** Which columns hold numbers (right-aligned in the table). */
  readonly numeric: readonly boolean[];
  readonly rows: readonly (readonly Cell[])[];
}

const WHOLE = new Set<DuckDBTypeId>([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

const NUMERIC = new Set<DuckDBTypeId>([
  ...WHOLE,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.DECIMAL,
]);

/**
 * DuckDB's JSON conversion, but a 64- or 128-bit integer is a number when it is exactly one (within
 * ±2^53), else its digits as a string; nested values convert the same way.
 */
const toCell: DuckDBValueConverter<Cell> = (value, type, converter) => {
  if (value === null) return null;
  if (WHOLE.has(type.typeId) && typeof value === "bigint")
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  return JsonDuckDBValueConverter(value, type, converter);
};

/** Reads every row of `reader` as cells. */
export function resultOf(reader: DuckDBResultReader): QueryResult {
  const types = reader.columnTypes();
  return {
    columns: reader.columnNames(),
    keys: reader.deduplicatedColumnNames(),
    numeric: types.map((t) => NUMERIC.has(t.typeId)),
    rows: reader.convertRows<Cell>((v, t) => toCell(v, t, toCell)),
  };
}

/** A cell as text: strings as they are, nested values as JSON, null as `null` (empty in CSV). */
const text = (cell: Cell): string =>
  cell === null
    ? ""
    : typeof cell === "string"
      ? cell
      : typeof cell === "object"
        ? JSON.stringify(cell)
        : String(cell);

function table(r: QueryResult): string {
  const header = r.columns.map(terminalSafe);
  const body = r.rows.map((row) => row.map((c) => (c === null ? "NULL" : terminalSafe(text(c)))));
  const widths = header.map((h, i) => {
    let widest = h.length;
    for (const row of body) widest = Math.max(widest, (row[i] ?? "").length);
    return widest;
  });
  const line = (cells: readonly string[], pad: (i: number) => boolean) =>
    cells
      .map((c, i) => (pad(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const lines = [
    line(header, (i) => r.numeric[i] === true),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...body.map((row) => line(row, (i) => r.numeric[i] === true)),
  ];
  return `${lines.join("\n")}\n`;
}

/** As RFC 4180, lines ending in a newline: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
const csvField = (s: string): string => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

function csv(r: QueryResult): string {
  const lines = [r.columns, ...r.rows.map((row) => row.map(text))].map((cells) =>
    cells.map(csvField).join(","),
  );
  return `${lines.join("\n")}\n`;
}

/** One row object a line, inside one array. */
function json(r: QueryResult): string {
  if (r.rows.length === 0) return "[]\n";
  const objects = r.rows.map((row) =>
    JSON.stringify(Object.fromEntries(r.keys.map((k, i) => [k, row[i] ?? null]))),
  );
  return `[\n${objects.join(",\n")}\n]\n`;
}

export function formatResult(r: QueryResult, format: QueryFormat): string {
  return format === "csv" ? csv(r) : format === "json" ? json(r) : table(r);
}
