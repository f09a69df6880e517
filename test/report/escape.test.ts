/** Escaping: HTML through the `html` template, vega SVG checks, and Markdown table cells. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { escapeHtml, escapeMarkdown, html, trustedSvg, UnsafeSvgError } from "../../src/report/escape.ts";
import { mdTable } from "../../src/report/markdown.ts";

const HOSTILE = `<script>alert(1)</script> "quoted" 'single' & \`tick\` <img src=x onerror=alert(2)>`;

describe("escapeHtml and the html template", () => {
  it("escapes every character HTML gives meaning to", () => {
    expect(escapeHtml(HOSTILE)).toBe(
      "&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &#39;single&#39; &amp; &#96;tick&#96; &lt;img src=x onerror=alert(2)&gt;",
    );
  });

  it("escapes interpolated values, in text and in attributes, but not nested templates", () => {
    const inner = html`<b>${HOSTILE}</b>`;
    const out = html`<td data-sort="${HOSTILE}">${inner}${[HOSTILE, 3, null, undefined, false]}</td>`.value;
    expect(out).not.toContain("<script");
    expect(out).not.toContain("<img");
    expect(out.startsWith('<td data-sort="&lt;script&gt;')).toBe(true);
    expect(out).toContain("<b>&lt;script&gt;");
    expect(out).toContain("3</td>");
  });

  it("never lets a value open a tag or leave an attribute (any string)", () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const escaped = escapeHtml(s);
        expect(escaped).not.toMatch(/[<>"'`]/);
        expect(html`<p title="${s}">${s}</p>`.value).toBe(`<p title="${escaped}">${escaped}</p>`);
      }),
    );
  });
});

describe("trustedSvg", () => {
  it("accepts vega's SVG and strips an XML prolog", () => {
    expect(trustedSvg('<?xml version="1.0"?>\n<svg width="1"><text>a &lt; b</text></svg>').value).toBe(
      '<svg width="1"><text>a &lt; b</text></svg>',
    );
  });

  it.each([
    "<svg><script>alert(1)</script></svg>",
    '<svg><rect onclick="alert(1)"/></svg>',
    '<svg><image href="http://example.com/x.png"/></svg>',
    '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
    '<svg><rect fill="url(http://example.com/p)"/></svg>',
    "<div>not svg</div>",
  ])("refuses %s", (svg) => {
    expect(() => trustedSvg(svg)).toThrow(UnsafeSvgError);
  });

  it("keeps internal url(#id) references (clip paths, gradients)", () => {
    expect(() => trustedSvg('<svg><g clip-path="url(#clip1)"></g></svg>')).not.toThrow();
  });
});

describe("escapeMarkdown", () => {
  it("neutralises table pipes, code ticks, HTML, links and line breaks", () => {
    expect(escapeMarkdown("a|b `c` <script>\n*d* [x](y) ![i][r]")).toBe(
      "a\\|b \\`c\\` \\<script\\> \\*d\\* [x\\](y) ![i\\][r]",
    );
  });

  it("leaves numbers, versions, intervals and snake_case names as they are", () => {
    for (const text of [
      "100.0% [83.9%, 100.0%]",
      "0.1.0",
      "v0.2.0_f8de30c",
      "pass_to_fail",
      "a-b (c)",
      "04:29:16Z",
    ])
      expect(escapeMarkdown(text)).toBe(text);
  });

  it("escapes what starts a block only at the start of the line", () => {
    expect(escapeMarkdown("# heading")).toBe("\\# heading");
    expect(escapeMarkdown("1. item")).toBe("1\\. item");
    expect(escapeMarkdown("- item")).toBe("\\- item");
    expect(escapeMarkdown("---")).toBe("\\---");
    expect(escapeMarkdown("a # b 1. c - d")).toBe("a # b 1. c - d");
  });

  it("escapes emphasis, entities, mentions, issue links and emoji only where they could form", () => {
    expect(escapeMarkdown("_x_ a_b a__b __c")).toBe("\\_x\\_ a_b a__b \\_\\_c");
    expect(escapeMarkdown("&amp; & b")).toBe("\\&amp; & b");
    expect(escapeMarkdown("@bob a@b #12 x#1 :smile: $5 ~x~ \\")).toBe(
      "\\@bob a@b \\#12 x#1 \\:smile: \\$5 \\~x\\~ \\\\",
    );
  });

  it("keeps a table row at its column count whatever the cell text", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 4 }), (cells) => {
        const [, , row] = mdTable(
          cells.map((_, i) => `c${i}`),
          [cells],
        ).split("\n");
        expect(row).toBeDefined();
        expect(row).not.toMatch(/[\r\n]/);
        // Unescaped pipes are exactly the cell separators.
        const separators = row!.replace(/\\\\/g, "").match(/(?<!\\)\|/g) ?? [];
        expect(separators.length).toBe(cells.length + 1);
        expect(row!.replace(/\\./g, "")).not.toMatch(/[<>`]/);
      }),
    );
  });
});

describe("trustedSvg and hostile text", () => {
  it("accepts javascript: and onerror= as text and in aria labels (vega escaped them)", () => {
    const svg =
      '<svg width="1"><g aria-label="model: x onerror=alert(1); javascript:alert(1)"><text>javascript:alert(1) onerror=x &lt;img&gt;</text></g></svg>';
    expect(trustedSvg(svg).value).toBe(svg);
  });
});

describe("control and bidi characters", () => {
  const TEXT = "m\u001b[31m\u0007 \u202eevil\r\nnext\tcol \u009b";

  it("escapeHtml shows them as \\xNN / \\uNNNN, keeping tab and newline", () => {
    expect(escapeHtml(TEXT)).toBe("m\\x1b[31m\\x07 \\u202eevil\\x0d\nnext\tcol \\x9b");
    expect(html`<p title="${TEXT}">${TEXT}</p>`.value).not.toMatch(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/,
    );
  });

  it("escapeMarkdown shows them with the backslash escaped, on one line", () => {
    expect(escapeMarkdown(TEXT)).toBe("m\\\\x1b[31m\\\\x07 \\\\u202eevil next\tcol \\\\x9b");
  });

  it("trustedSvg shows them in text and attribute values", () => {
    expect(trustedSvg('<svg><g aria-label="a\u001bb"><text>c\u0007\u202ed</text></g></svg>').value).toBe(
      '<svg><g aria-label="a\\x1bb"><text>c\\x07\\u202ed</text></g></svg>',
    );
  });
});
