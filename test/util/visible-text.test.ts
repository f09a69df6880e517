/** visibleText: the one definition of the characters untrusted text must not carry as they are. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { terminalSafe } from "../../src/formats/terminal-text.ts";
import { visibleText } from "../../src/util/visible-text.ts";

/** What XML 1.0 forbids, plus C1 controls, DEL and the bidi controls. */
const UNSAFE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for them
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]/u;

describe("visibleText", () => {
  it("shows C0, DEL, C1 and bidi controls as \\xNN / \\uNNNN", () => {
    expect(visibleText("a\u001b[31mb\u0007\u007f\u0085\u009b\u202ec\u2066\u2069")).toBe(
      "a\\x1b[31mb\\x07\\x7f\\x85\\x9b\\u202ec\\u2066\\u2069",
    );
  });

  it("shows what XML forbids: lone surrogates, U+FFFE, U+FFFF; keeps paired surrogates", () => {
    expect(visibleText("x\ud800y\udc00z\ufffe\uffff")).toBe("x\\ud800y\\udc00z\\ufffe\\uffff");
    expect(visibleText("emoji \ud83d\ude00")).toBe("emoji \ud83d\ude00");
  });

  it("keeps tab and newline only when asked, and escapes carriage returns either way", () => {
    expect(visibleText("a\tb\nc\rd")).toBe("a\\x09b\\x0ac\\x0dd");
    expect(visibleText("a\tb\nc\rd", "\t\n")).toBe("a\tb\nc\\x0dd");
  });

  it("leaves other text alone: names, markup, accents, arrows", () => {
    const text = "gemini/gemini-2.5-flash [agent] <b>&amp; τ³ pass → fail \\x1b";
    expect(visibleText(text)).toBe(text);
  });

  it("never leaves an unsafe character, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(visibleText(s)).not.toMatch(UNSAFE);
        expect(visibleText(s, "\t\n")).not.toMatch(UNSAFE);
      }),
    );
  });

  it("is what the terminal gets", () => {
    expect(terminalSafe("run\u001b]0;x\u0007\n.json")).toBe("run\\x1b]0;x\\x07\\x0a.json");
  });
});
