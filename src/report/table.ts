/** Sortable HTML tables: a header click sorts by that column (the script lives in `html.ts`). */
import { html, type SafeHtml } from "./escape.ts";

export type Cell = string | number | boolean | null | undefined;

export interface Column<T> {
  readonly label: string;
  readonly value: (row: T) => Cell;
  /** Display text; the raw value stays the sort key. */
  readonly format?: (value: Cell, row: T) => string | SafeHtml;
}

const isNumeric = (v: Cell) => typeof v === "number" && Number.isFinite(v);

/** `toFixed` without a sign on zero: a bound at -1e-17 (floating-point rounding) reads "0.0", not "-0.0". */
const fixed = (v: number, digits: number) => {
  const s = v.toFixed(digits);
  return /^-0(\.0*)?$/.test(s) ? s.slice(1) : s;
};

export const pct = (v: Cell) => (typeof v === "number" ? `${fixed(v * 100, 1)}%` : "–");
/** A difference of two rates in percentage points, signed: `+2.0 pts`, `−4.0 pts`. */
export const points = (v: number) => `${v >= 0 ? "+" : "−"}${fixed(Math.abs(v * 100), 1)} pts`;
export const num = (digits: number) => (v: Cell) => (typeof v === "number" ? fixed(v, digits) : "–");

function cell<T>(col: Column<T>, row: T): SafeHtml {
  const v = col.value(row);
  const shown =
    col.format !== undefined ? col.format(v, row) : v === null || v === undefined ? "–" : String(v);
  const key = v === null || v === undefined ? "" : String(v);
  // The sort key only where it is not the cell's text (the script falls back to the text).
  const sortKey = typeof shown === "string" && shown === key ? "" : html` data-sort="${key}"`;
  return html`<td${sortKey}${isNumeric(v) ? html` class="num"` : ""}>${shown}</td>`;
}

export interface TableOptions {
  readonly id?: string;
  /** Class of each body row (the browser test counts `tr.flip`). */
  readonly rowClass?: string;
  readonly caption?: string;
}

export function table<T>(
  columns: readonly Column<T>[],
  data: readonly T[],
  opts: TableOptions = {},
): SafeHtml {
  if (data.length === 0) return html`<p class="empty">${opts.caption ?? "Table"}: no rows.</p>`;
  const numeric = columns.map((c) => data.every((r) => isNumeric(c.value(r)) || c.value(r) == null));
  // Wide tables scroll inside their own box, so a narrow screen never scrolls the whole page.
  return html`<div class="scroll"><table class="sortable"${opts.id ? html` id="${opts.id}"` : ""}>
${opts.caption ? html`<caption>${opts.caption}</caption>` : ""}
<thead><tr>${columns.map(
    (c, i) =>
      html`<th scope="col" data-type="${numeric[i] ? "num" : "text"}" tabindex="0" aria-sort="none">${c.label}</th>`,
  )}</tr></thead>
<tbody>
${data.map((r) => html`<tr${opts.rowClass ? html` class="${opts.rowClass}"` : ""}>${columns.map((c) => cell(c, r))}</tr>\n`)}</tbody>
</table></div>`;
}
