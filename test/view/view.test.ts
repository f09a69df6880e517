/**
 * End to end: `tau-rescore view` started as a user starts it (the built CLI, a child process), on a run
 * over a real corpus file whose airline task 47 flips (a transfer the user refused); then headless
 * Chromium: open the printed URL, filter the flips, open the simulation, record a review with the keys,
 * reload and see it; the reviews file holds it. Requests without the token, or naming another host, are
 * refused; the page fits 1280 px and 390 px without sideways scrolling.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, cli, smallExperiment } from "../helpers/small-run.ts";

const CHROMIUM = "/usr/bin/chromium";
const haveChromium = existsSync(CHROMIUM);

/** A GET with exactly these headers (fetch would set Host and Origin itself). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = request(url, { headers }, (res) => {
      let body = "";
      res.on("data", (d) => {
        body += d;
      });
      res.on("end", () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", fail);
    req.end();
  });
}

describe.skipIf(!haveChromium)("tau-rescore view in headless Chromium", () => {
  let server: ChildProcess;
  let url = "";
  let reviewsFile = "";
  let experiment = "";
  let browser: Browser;
  let page: Page;
  const stderr: string[] = [];

  beforeAll(async () => {
    const s = smallExperiment(["sierra-tau2-bench__pr448-whissle/airline_run1.json"]);
    experiment = s.experiment;
    const config = JSON.parse(readFileSync(s.experiment, "utf8"));
    reviewsFile = join(s.dir, "reviews.json");
    writeFileSync(s.experiment, JSON.stringify({ ...config, conversations: "all" }));
    const run = cli(["run", s.experiment]);
    expect(run.status, run.stderr).toBe(0);
    const env: NodeJS.ProcessEnv = { ...process.env, TAU_RESCORE_REVIEWER: "browser test" };
    delete env.TAU2_DATA_DIR;
    server = spawn(process.execPath, [CLI, "view", s.experiment, "--reviews", reviewsFile], { env });
    server.stderr?.on("data", (d) => stderr.push(String(d)));
    url = await new Promise<string>((ok, fail) => {
      let out = "";
      server.stdout?.on("data", (d) => {
        out += d;
        const line = out.split("\n")[0];
        if (out.includes("\n") && line !== undefined) ok(line);
      });
      server.on("exit", (code) => fail(new Error(`view exited ${code}: ${stderr.join("")}`)));
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  });

  afterAll(async () => {
    await browser?.close();
    server?.kill("SIGINT");
  });

  it("prints a 127.0.0.1 URL with a token", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  });

  it("refuses requests without the token, with a wrong one, or naming another host", async () => {
    const bare = url.replace(/\?token=.*$/, "");
    const host = new URL(url).host;
    expect((await rawGet(bare, { host })).status).toBe(401);
    expect((await rawGet(`${bare}?token=wrong`, { host })).status).toBe(401);
    expect((await rawGet(url, { host: `evil.example:${new URL(url).port}` })).status).toBe(403);
    expect((await rawGet(url, { host, origin: "http://evil.example" })).status).toBe(403);
  });

  it("opens the run, filters the flips, opens the simulation, records a review with the keys, and shows it after a reload", async () => {
    await page.goto(url);
    expect(page.url()).not.toContain("token="); // moved into a cookie
    expect(await page.locator("#comparisons").textContent()).toContain("tau3-vs-structured");
    await page.getByRole("link", { name: "tau3-vs-structured", exact: true }).click();
    const rows = page.locator("#flips tbody tr");
    const before = await rows.count();
    expect(before).toBeGreaterThan(1);
    await page.selectOption("select[name=task]", "47");
    await page.getByRole("button", { name: "filter" }).click();
    await page.waitForURL(/task=47/);
    expect(await page.locator("#count").textContent()).toBe(`1 of ${before} flip(s)`);
    await rows.first().locator("a").click();
    await page.waitForURL(/\/simulation\//);
    expect(await page.locator("h1").textContent()).toContain("task 47");
    // The cause's evidence is marked in the conversation, whole.
    expect(await page.locator("li.msg.marked").count()).toBeGreaterThan(0);
    const form = page.locator("form[data-api='/api/review']").first();
    const cause =
      (await form.locator("input[name=kind]").inputValue()) +
      ":" +
      (await form.locator("input[name=reference]").inputValue());
    await page.locator("body").press("c");
    await page.keyboard.type("turn 7: the user refuses a transfer; the agent transfers at turn 9");
    await Promise.all([page.waitForEvent("load"), page.keyboard.press("Control+Enter")]);
    await page.reload();
    const saved = page.locator(`.review[data-cause="${cause}"]`);
    expect(await saved.locator(".rv-confirmed").count()).toBe(1);
    expect(await saved.textContent()).toContain("the agent transfers at turn 9");
    const file = JSON.parse(readFileSync(reviewsFile, "utf8"));
    expect(file.reviews).toHaveLength(1);
    expect(file.reviews[0]).toMatchObject({
      verdict: "confirmed",
      reviewer: "browser test",
      reason: "turn 7: the user refuses a transfer; the agent transfers at turn 9",
    });
    expect(`${file.reviews[0].kind}:${file.reviews[0].reference}`).toBe(cause);
    // A terminal reviewer changes it meanwhile (`review set` beside the server): the page shows theirs.
    const id = file.reviews[0].simulation_id;
    const set = cli([
      "review",
      "set",
      experiment,
      "--reviews",
      reviewsFile,
      "--simulation",
      id,
      "--path",
      file.reviews[0].path,
      "--cause",
      cause,
      "--verdict",
      "unclear",
      "--reason",
      "set from the terminal",
    ]);
    expect(set.status, set.stderr).toBe(0);
    await page.reload();
    expect(await saved.locator(".rv-unclear").count()).toBe(1);
    expect(await saved.textContent()).toContain("set from the terminal");
  });

  it("walks a sample with the n key, then records, changes and withdraws a sampled review", async () => {
    const sample = new URL("/comparison/tau3-vs-structured/sample?n=2&seed=7", url).href;
    await page.goto(sample);
    // `review sample` (run now, beside the server holding the store) draws the same simulations.
    const listed = cli([
      "review",
      "sample",
      experiment,
      "--reviews",
      reviewsFile,
      "--comparison",
      "tau3-vs-structured",
      "--n",
      "2",
      "--seed",
      "7",
      "--list",
    ]);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stderr).toContain("open in another process");
    const ids = listed.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t")[3]);
    expect(ids.length).toBeGreaterThan(0);
    expect(await page.locator("#sample tbody tr a").allTextContents()).toEqual(ids);
    const first = await page.locator("#sample tbody tr a").first().getAttribute("href");
    await Promise.all([page.waitForURL(/\/simulation\//), page.locator("body").press("n")]);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(first);
    const form = page.locator(".review[data-sample='tau3-vs-structured'] form");
    await form.locator("input[value=missed]").check();
    await form.locator("textarea[name=reason]").fill("the agent never confirms the new flight with the user");
    // A miss names its turns: the server refuses one without them and the page says why.
    await form.getByRole("button", { name: "save" }).click();
    await form.locator(".error:not(:empty)").waitFor();
    expect(await form.locator(".error").textContent()).toContain("turns");
    await form.locator("input[name=turns]").fill("12");
    await Promise.all([page.waitForEvent("load"), form.getByRole("button", { name: "save" }).click()]);
    const saved = () => JSON.parse(readFileSync(reviewsFile, "utf8")).sampled ?? [];
    expect(saved()).toMatchObject([
      {
        comparison: "tau3-vs-structured",
        seed: 7,
        verdict: "missed",
        reason: "turns 12: the agent never confirms the new flight with the user",
      },
    ]);
    const again = page.locator(".review[data-sample='tau3-vs-structured']");
    expect(await again.locator(".rv-missed").count()).toBeGreaterThan(0);
    await again.locator("input[value=clean]").check();
    await again.locator("input[name=turns]").fill("");
    await again.locator("textarea[name=reason]").fill("read again: the agent confirms at turn 10");
    await Promise.all([page.waitForEvent("load"), again.getByRole("button", { name: "change" }).click()]);
    expect(saved()).toMatchObject([
      { verdict: "clean", reason: "read again: the agent confirms at turn 10" },
    ]);
    await Promise.all([page.waitForEvent("load"), again.getByRole("button", { name: "withdraw" }).click()]);
    expect(saved()).toEqual([]);
    // The sample page shows it unreviewed again.
    await page.goto(sample);
    expect(await page.locator("#sample .rv-unreviewed").count()).toBe(
      await page.locator("#sample tbody tr").count(),
    );
  });

  it("fits 1280 px and 390 px without scrolling sideways", async () => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const path of ["/", "/comparison/tau3-vs-structured"]) {
        await page.goto(new URL(path, url).href);
        const overflow = (await page.evaluate(
          "document.documentElement.scrollWidth - window.innerWidth",
        )) as number;
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      }
      await page.screenshot({ path: join(mkdtempSync(join(tmpdir(), "tr-view-")), `run-${width}.png`) });
    }
  });
});
