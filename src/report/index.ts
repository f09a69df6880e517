/**
 * The rich report, written through `writeReport`'s `extra` hook into its temporary folder: charts
 * (`charts/*.vl.json|svg|png`), and with `html` also `report.html` and `report.md`.
 */

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Summary } from "../analysis/summary.ts";
import { buildCharts, type ChartOptions, type RenderedChart, writeCharts } from "../charts/index.ts";
import type { VerdictStore } from "../store/store.ts";
import { loadReportData, type ReportMeta } from "./data.ts";
import { renderHtml } from "./html.ts";
import { renderMarkdown } from "./markdown.ts";

export { chartWarnings } from "../charts/index.ts";

export interface RichReportOptions extends ReportMeta {
  /** Also write report.html and report.md (charts are always written). */
  readonly html: boolean;
  /** The report's summary (`writeReport` hands it to its `extra`). */
  readonly summary: Summary;
  /** How the charts are drawn (default `DEFAULT_CHART_OPTIONS`). */
  readonly charts?: ChartOptions;
}

export async function writeRichReport(
  store: VerdictStore,
  dir: string,
  opts: RichReportOptions,
): Promise<readonly RenderedChart[]> {
  // Vega first, so the PNG threads have work while the pages' data is read here.
  const { pngs } = await writeCharts(dir, await buildCharts(store, opts.charts));
  try {
    if (opts.html) {
      const data = await loadReportData(
        store,
        {
          writtenAt: opts.writtenAt,
          reviewsSource: opts.reviewsSource,
          allConversations: opts.allConversations,
        },
        opts.summary,
      );
      // The pages are laid out once the PNGs are drawn, so a PNG that failed is shown as such.
      const charts = await pngs;
      writeFileSync(join(dir, "report.html"), renderHtml(data, charts));
      writeFileSync(join(dir, "report.md"), renderMarkdown(data, charts));
    }
  } catch (e) {
    await pngs.catch(() => {}); // no PNG is written into the folder once the report is dropped
    throw e;
  }
  return await pngs;
}
