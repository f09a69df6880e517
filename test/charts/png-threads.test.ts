/** PNGs drawn on threads (`pngThreads`) are byte for byte those `renderPng` draws, each for its own SVG. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCharts } from "../../src/charts/index.ts";
import { pngThreads, renderPng, renderSvg } from "../../src/charts/render.ts";
import type { VerdictStore } from "../../src/store/store.ts";
import { syntheticStore } from "../analysis/synthetic-store.ts";

let store: VerdictStore;
let svgs: string[] = [];
beforeAll(async () => {
  store = await syntheticStore(
    ["alpha", "beta", "gamma"].flatMap((model, m) =>
      ["1", "2", "3", "4"].map((task, t) => ({ model, task, tau3: (m + t) % 2 === 0, structured: t < 2 })),
    ),
    { bootstrapSamples: 20, minTaskCoverage: 0.5 },
  );
  svgs = await Promise.all((await buildCharts(store)).map((c) => renderSvg(c.spec)));
}, 60_000);
afterAll(() => store.close());

describe("PNG threads", () => {
  it("draw every chart's PNG byte for byte as renderPng does, sent all at once to two threads", async () => {
    expect(svgs.length).toBeGreaterThan(2);
    const threads = pngThreads(2);
    try {
      const drawn = await Promise.all(svgs.map((svg) => threads.render(svg)));
      drawn.forEach((png, i) => {
        const here = renderPng(svgs[i]!);
        expect(Buffer.isBuffer(png.data)).toBe(true);
        expect(png.data.equals(here.data), `chart ${i}`).toBe(true);
        expect([png.width, png.height]).toEqual([here.width, here.height]);
      });
    } finally {
      await threads.close();
    }
  });

  it("fail an SVG resvg cannot read and go on with the next", async () => {
    const threads = pngThreads(1);
    try {
      await expect(threads.render("<not svg")).rejects.toThrow(/^resvg: /);
      expect((await threads.render(svgs[0]!)).data.equals(renderPng(svgs[0]!).data)).toBe(true);
    } finally {
      await threads.close();
    }
  });

  it("fail what is still waiting once closed, instead of hanging", async () => {
    const threads = pngThreads(1);
    const waiting = threads.render(svgs[0]!);
    await threads.close();
    await expect(waiting).rejects.toThrow(/PNG thread exited/);
    await expect(threads.render(svgs[0]!)).rejects.toThrow(/PNG thread exited/);
  });
});
