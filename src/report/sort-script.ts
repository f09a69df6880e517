/**
 * The page's only script: click (or Enter on) a column header to sort its table; again to reverse.
 * Cells carry their raw value in `data-sort` where it is not their text, so "12.5%" sorts as 0.125 and
 * empty cells sort first.
 */
export const SORT_SCRIPT = `(() => {
  for (const table of document.querySelectorAll("table.sortable")) {
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((th, col) => {
      const sort = () => {
        const dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
        for (const h of heads) h.setAttribute("aria-sort", "none");
        th.setAttribute("aria-sort", dir);
        const numeric = th.dataset.type === "num";
        const key = (tr) => tr.cells[col]?.dataset.sort ?? tr.cells[col]?.textContent ?? "";
        const asNumber = (s) => (s === "" ? -Infinity : Number(s));
        const body = table.tBodies[0];
        const sorted = Array.from(body.rows).sort((a, b) => {
          const x = key(a);
          const y = key(b);
          let c = numeric ? asNumber(x) - asNumber(y) : x.localeCompare(y, undefined, { numeric: true });
          if (Number.isNaN(c)) c = x === y ? 0 : x === "" ? -1 : 1;
          return dir === "ascending" ? c : -c;
        });
        body.append(...sorted);
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") {
          e.preventDefault();
          sort();
        }
      });
    });
  }
})();`;
