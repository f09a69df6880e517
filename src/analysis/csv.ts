/** The report's CSV files (RFC 4180), safe to open in a spreadsheet. */

/** Text a spreadsheet would read as a formula (OWASP "CSV injection"): `= + - @`, tab, CR first. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: quoted when needed; text that could start a formula gets a leading `'` (numbers do not). */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = typeof v === "object" ? JSON.stringify(v) : String(v);
  if (typeof v === "string" && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A whole file: the header even when there are no rows. */
export function toCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const lines = [
    columns.map(csvCell).join(","),
    ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(",")),
  ];
  return `${lines.join("\n")}\n`;
}
