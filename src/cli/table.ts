/** Left-aligned text columns for the terminal: the first row is the header, no trailing newline. */
export function alignedTable(rows: readonly (readonly string[])[]): string {
  // A loop, not a spread into Math.max: a table may have more rows than a call takes arguments.
  const widths = (rows[0] ?? []).map((_, i) => {
    let widest = 0;
    for (const r of rows) widest = Math.max(widest, (r[i] ?? "").length);
    return widest;
  });
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}
