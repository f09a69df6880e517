/** sanitizeSvg: removes what could run or load, keeps vega's markup and all text, says what it removed. */
import { describe, expect, it } from "vitest";
import { renderPng, renderSvg } from "../../src/charts/render.ts";
import { sanitizeSvg } from "../../src/charts/svg-safety.ts";

describe("sanitizeSvg", () => {
  it("keeps an SVG whose hostile text is only text", () => {
    const svg =
      '<svg width="2"><g aria-label="javascript:x onerror=y"><text>url(http://e/x) onload=z</text></g></svg>';
    expect(sanitizeSvg(`<?xml version="1.0"?>\n${svg}`)).toEqual({ svg, warnings: [] });
  });

  it.each([
    ["<svg><script>alert(1)</script><text>a</text></svg>", "<svg><text>a</text></svg>", "removed <script>"],
    [
      '<svg><rect onclick="alert(1)" width="1"/></svg>',
      '<svg><rect width="1"/></svg>',
      "removed attribute onclick of <rect>",
    ],
    ['<svg><a href="javascript:x"><text>t</text></a></svg>', "<svg></svg>", "removed <a>"],
    [
      '<svg><rect fill="url(http://e/p)"/></svg>',
      "<svg><rect/></svg>",
      "removed fill of <rect>: external reference",
    ],
    [
      '<svg><g clip-path="url(#c1)"></g><!-- x --></svg>',
      '<svg><g clip-path="url(#c1)"></g></svg>',
      "removed a comment, declaration or CDATA section",
    ],
  ])("cleans %s", (svg, clean, warning) => {
    expect(sanitizeSvg(svg)).toEqual({ svg: clean, warnings: [warning] });
  });

  it("shows control characters in text and attribute values as \\xNN, which resvg then draws", async () => {
    const svg = await renderSvg({
      data: { values: [{ model: "gpt\u001b[31m\u0007", n: 1 }] },
      mark: { type: "bar", aria: true, description: "d\u001b" },
      encoding: { y: { field: "model", type: "nominal" }, x: { field: "n", type: "quantitative" } },
    });
    expect(() => renderPng(svg)).toThrow(/non-XML character/);
    const safe = sanitizeSvg(svg);
    expect(safe.warnings).toEqual([]);
    expect(safe.svg).toContain(">gpt\\x1b[31m\\x07</text>");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
    expect(safe.svg).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(renderPng(safe.svg).width).toBeGreaterThan(0);
  });

  it("replaces something that is not an SVG with an empty one", () => {
    const r = sanitizeSvg("<div>x</div>");
    expect(r.svg).toMatch(/^<svg /);
    expect(r.warnings).toContain("not an SVG document");
  });
});
