/**
 * End to end: `report --html` on a run over a real corpus file whose flipped simulation (airline task
 * 47, a transfer the user refused) carries `<script>alert(1)</script>` in its first agent message and in
 * the agent message at the violation's turn; then report.html opened in headless Chromium via file://:
 * the conversation shows as text, a cause scrolls to its highlighted turn, nothing runs.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "../../src/analysis/rows.ts";
import { installAnalyses } from "../../src/analysis/run.ts";
import { messageAnchor, simAnchor } from "../../src/report/anchors.ts";
import { VerdictStore } from "../../src/store/store.ts";
import { CORPUS_DIR } from "../helpers/data.ts";
import { cli, smallExperiment } from "../helpers/small-run.ts";

const SOURCE = "sierra-tau2-bench__pr448-whissle/airline_run1.json";
const INJECTED = "<script>alert(1)</script>";
const GREETING = `${INJECTED} Hi! How can I help you today?`;
const CHROMIUM = "/usr/bin/chromium";

interface RawMessage {
  role: string;
  content: string | null;
  tool_calls?: { name: string }[] | null;
}
interface RawFile {
  simulations: { id: string; task_id: string | number; messages: RawMessage[] }[];
}

/**
 * The corpus file with the script text in task 47's first agent message and in the one that calls the
 * refused transfer; returns that simulation's own id.
 */
function hostileCopy(dest: string): string {
  const file = JSON.parse(readFileSync(join(CORPUS_DIR, SOURCE), "utf8")) as RawFile;
  const sim = file.simulations.find((s) => String(s.task_id) === "47");
  const msg = sim?.messages.find((m) => m.tool_calls?.some((c) => c.name === "transfer_to_human_agents"));
  const first = sim?.messages.find((m) => m.role === "assistant");
  if (sim === undefined || msg === undefined || first === undefined || first === msg)
    throw new Error(`${SOURCE}: task 47 has no greeting and transfer call`);
  msg.content = `${INJECTED} Let me transfer you | now.`;
  first.content = GREETING;
  mkdirSync(join(dest, "corpus"), { recursive: true });
  writeFileSync(join(dest, "corpus", "hostile_airline.json"), JSON.stringify(file));
  return sim.id;
}

let out = "";
let flipCount = -1;
let task47Excerpt: unknown;
let task47Id = "";
/** Task 47's flip: its conversation's anchor and the anchor of the requirement cause's turn. */
let task47 = { section: "", turn: "" };
beforeAll(async () => {
  const s = smallExperiment([]);
  task47Id = hostileCopy(s.dir);
  const db = join(s.dir, "r.duckdb");
  const run = cli(["run", s.experiment, "--db", db]);
  expect(run.status, run.stderr).toBe(0);
  out = join(s.dir, "report");
  const report = cli(["report", "--db", db, "--out", out, "--html"]);
  expect(report.status, report.stderr).toBe(0);
  const store = await VerdictStore.open(db);
  try {
    await installAnalyses(store);
    flipCount = ((await rows(store, "SELECT count(*) AS n FROM flips"))[0]?.n as number) ?? -1;
    task47Excerpt = (
      await rows(
        store,
        `SELECT e.excerpt FROM run_evidence e JOIN run_causes c
           ON c.sim_key = e.sim_key AND c.grader = e.grader AND c.seq = e.cause_seq
         JOIN flips f ON f.sim_key = c.sim_key
         WHERE f.task_id = '47' AND c.kind = 'requirement' AND c.reference = 'airline.47.no_transfer'`,
      )
    )[0]?.excerpt;
    const [cause] = await rows<{ sim_key: string; message_index: number }>(
      store,
      `SELECT c.sim_key, c.message_index FROM run_causes c JOIN flips f USING (sim_key)
       WHERE f.task_id = '47' AND c.grader = 'structured' AND c.reference = 'airline.47.no_transfer'`,
    );
    if (cause === undefined) throw new Error("task 47 does not flip on airline.47.no_transfer");
    task47 = { section: simAnchor(cause.sim_key), turn: messageAnchor(cause.sim_key, cause.message_index) };
  } finally {
    store.close();
  }
});

describe("report --html", () => {
  it("writes charts, report.html and report.md next to the exports", () => {
    const charts = readdirSync(join(out, "charts"));
    for (const name of ["flip_rates_by_model", "flips_by_cause", "pass_hat_k"])
      for (const ext of ["vl.json", "svg", "png"])
        expect(charts).toContain(`${name}--tau3-vs-structured.${ext}`);
    expect(existsSync(join(out, "report.html"))).toBe(true);
    const md = readFileSync(join(out, "report.md"), "utf8");
    expect(md).toMatch(/^# tau-rescore report/);
    expect(md).toContain("(charts/flip_rates_by_model--tau3-vs-structured.png)");
    expect(md).not.toContain("<script");
  });

  it("grades the injected simulation as a flip whose evidence holds the script text", () => {
    expect(flipCount).toBeGreaterThan(0);
    expect(String(task47Excerpt)).toContain(INJECTED);
  });

  it("keeps the script text out of the HTML source as markup", () => {
    const page = readFileSync(join(out, "report.html"), "utf8");
    expect(page).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(page.match(/<script/g)?.length).toBe(1); // the sort script only
    expect(page).not.toMatch(/\s(src|href)="(https?:)?\/\//);
    // Each chart once, as the SVG file beside the page.
    expect(page).not.toContain("<svg");
    expect(page).toContain('<img src="charts/flip_rates_by_model--tau3-vs-structured.svg"');
  });
});

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium)
  console.warn(
    `browser test skipped: ${CHROMIUM} missing (apt-get install -y chromium; .ci/run installs it)`,
  );

describe.skipIf(!haveChromium)("report.html in headless Chromium", () => {
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];
  const dialogs: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    // launchPersistentContext is how playwright takes --user-data-dir: a fresh profile per run.
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), "tr-chromium-")), {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
    page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(e.message));
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(out, "report.html")).href, { waitUntil: "load" });
  });
  afterAll(async () => {
    await context?.close();
  });

  it("loads without console errors and without any network request", () => {
    expect(consoleErrors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith("file:"))).toEqual([]);
  });

  it("has one flip row per row of the flips view", async () => {
    expect(await page.locator("tr.flip").count()).toBe(flipCount);
  });

  it("shows the injected script as text and never runs it", async () => {
    const row = page.locator("tr.flip", { hasText: "airline.47.no_transfer" });
    await expect(row.count()).resolves.toBe(1);
    // The row links to the conversation, where the cause's evidence turn holds the script as text.
    expect(await row.locator(`a[href="#${task47.section}"]`).count()).toBe(1);
    const turn = page.locator(`#${task47.turn} .text`);
    expect(await turn.textContent()).toBe(`${INJECTED} Let me transfer you | now.`);
    expect(await page.locator(`#${task47.section} .ev.requirement`).count()).toBeGreaterThan(0);
    expect(dialogs).toEqual([]);
    expect(await page.locator("script").count()).toBe(1);
  });

  it("shows the conversation behind the flip as text, with the simulation's own id", async () => {
    const section = page.locator(`#${task47.section}`);
    expect(await section.count()).toBe(1);
    expect(await section.locator(".sim-id").textContent()).toBe(task47Id);
    const greeting = section.locator("li.msg.assistant").first().locator(".text");
    expect(await greeting.textContent()).toBe(GREETING);
    expect(await greeting.locator("*").count()).toBe(0); // text only, no element made of it
    expect(await section.locator(".task").textContent()).toContain("Gold actions");
    expect(await section.locator("table.components").textContent()).toContain("basis");
    expect(await page.locator("script").count()).toBe(1);
    expect(dialogs).toEqual([]);
  });

  it("scrolls to the highlighted evidence turn when its cause is clicked", async () => {
    // Browser-side code as strings: the test's TypeScript has no DOM types.
    await page.evaluate("window.scrollTo(0, 0)");
    const link = page.locator(`#${task47.section} a.cause-link`, { hasText: "airline.47.no_transfer" });
    await link.click();
    await page.waitForFunction(`location.hash === ${JSON.stringify(`#${task47.turn}`)}`);
    const placed = await page.evaluate(`(() => {
      const el = document.getElementById(${JSON.stringify(task47.turn)});
      const box = el.getBoundingClientRect();
      return {
        inView: box.top >= 0 && box.top < window.innerHeight,
        scrolled: window.scrollY > 0,
        targeted: el.matches(":target"),
        outline: getComputedStyle(el).outlineStyle,
      };
    })()`);
    expect(placed).toEqual({ inView: true, scrolled: true, targeted: true, outline: "solid" });
    const turn = page.locator(`#${task47.turn}`);
    expect(await turn.getAttribute("class")).toMatch(/\bhit\b/);
    expect(await turn.locator(".text").textContent()).toBe(`${INJECTED} Let me transfer you | now.`);
    expect(dialogs).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it("fits a 390 px wide screen: the page never scrolls sideways, chart text stays at 10 px or more", async () => {
    const narrow = await context.newPage();
    try {
      await narrow.setViewportSize({ width: 390, height: 844 });
      await narrow.goto(pathToFileURL(join(out, "report.html")).href, { waitUntil: "load" });
      const fit = (await narrow.evaluate(`({
        page: document.documentElement.scrollWidth,
        boxes: Math.max(...Array.from(document.querySelectorAll("figure .chart"), (c) => c.getBoundingClientRect().width)),
        charts: Array.from(document.querySelectorAll("figure img"), (i) => [i.getAttribute("src"), i.getBoundingClientRect().width]),
        tables: Array.from(document.querySelectorAll("table")).every((t) => t.parentElement.classList.contains("scroll")),
      })`)) as { page: number; boxes: number; charts: [string, number][]; tables: boolean };
      expect(fit.page).toBeLessThanOrEqual(390);
      expect(fit.boxes).toBeLessThanOrEqual(390); // a wider chart scrolls inside its box
      expect(fit.tables).toBe(true);
      expect(fit.charts.length).toBeGreaterThan(0);
      for (const [src, shown] of fit.charts) {
        // The chart is drawn at `shown` px of its SVG width: its smallest text, scaled the same.
        const svg = readFileSync(join(out, src), "utf8");
        const width = Number(/<svg[^>]*\swidth="([\d.]+)"/.exec(svg)?.[1]);
        const smallest = Math.min(...[...svg.matchAll(/font-size="([\d.]+)px"/g)].map((m) => Number(m[1])));
        expect((smallest * shown) / width, src).toBeGreaterThanOrEqual(9.99);
      }
    } finally {
      await narrow.close();
    }
  });

  it("fits the by-domain table on a 1280 px wide screen", async () => {
    const wide = await context.newPage();
    try {
      await wide.setViewportSize({ width: 1280, height: 900 });
      await wide.goto(pathToFileURL(join(out, "report.html")).href, { waitUntil: "load" });
      const cut = (await wide.evaluate(
        `Array.from(document.querySelectorAll('table[id$="-by-domain"]'), (t) => t.parentElement.scrollWidth - t.parentElement.clientWidth)`,
      )) as number[];
      expect(cut.length).toBeGreaterThan(0);
      expect(Math.max(...cut)).toBeLessThanOrEqual(0);
    } finally {
      await wide.close();
    }
  });

  it("sorts a table by a clicked column header", async () => {
    const tasks = () => page.locator("#flips-table tbody tr td:nth-child(3)").allTextContents();
    const header = page.locator("#flips-table th").nth(2);
    expect(await header.textContent()).toBe("task");
    await header.click();
    const asc = await tasks();
    expect(asc).toEqual([...asc].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })));
    await header.click();
    expect(await tasks()).toEqual([...asc].reverse());
    expect(await header.getAttribute("aria-sort")).toBe("descending");
    expect(consoleErrors).toEqual([]);
  });
});
