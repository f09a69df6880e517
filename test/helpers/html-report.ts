/**
 * The whole report with its pages and charts, as `tau-rescore report --html` writes it; the rate charts
 * by model draw every model (test stores hold a handful of simulations per model) unless told otherwise.
 */
import { writeReport } from "../../src/analysis/export.ts";
import type { Summary } from "../../src/analysis/summary.ts";
import { chartWarnings, type RenderedChart } from "../../src/charts/index.ts";
import { writeRichReport } from "../../src/report/index.ts";
import type { VerdictStore } from "../../src/store/store.ts";

export async function writeHtmlReport(
  store: VerdictStore,
  out: string,
  opts: { readonly allConversations?: boolean; readonly minModelSimulations?: number } = {},
): Promise<{ summary: Summary; charts: readonly RenderedChart[] }> {
  let charts: readonly RenderedChart[] = [];
  const summary = await writeReport(store, out, async (tmp, s) => {
    charts = await writeRichReport(store, tmp, {
      summary: s,
      html: true,
      writtenAt: "2026-01-01T00:00:00Z",
      reviewsSource: null,
      allConversations: opts.allConversations === true,
      charts: { minModelSimulations: opts.minModelSimulations ?? 1 },
    });
    return chartWarnings(charts);
  });
  return { summary, charts };
}
