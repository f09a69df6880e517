import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FormatError } from "../../src/formats/errors.ts";
import { decodeUtf8, readJsonDocument } from "../../src/formats/read-json.ts";
import { parsePyJson } from "../../src/py/parse.ts";

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, "utf8"));

function messageOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return "";
}

describe("decodeUtf8", () => {
  it("gives back the text of any UTF-8 bytes, ASCII-only or not", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary-ascii" }), fc.string({ unit: "grapheme" })), (s) => {
        fc.pre(!s.startsWith("\ufeff"));
        expect(decodeUtf8("f.json", utf8(s))).toBe(s);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads a view into a larger buffer by its own bounds", () => {
    const whole = utf8('xx{"a": "é"}yy');
    expect(decodeUtf8("f.json", whole.subarray(2, whole.length - 2))).toBe('{"a": "é"}');
    const ascii = utf8('xx{"a": 1}yy');
    expect(decodeUtf8("f.json", ascii.subarray(2, ascii.length - 2))).toBe('{"a": 1}');
  });

  it("drops a UTF-8 byte order mark and refuses UTF-16 and broken bytes", () => {
    expect(decodeUtf8("f.json", utf8("\ufeff[1]"))).toBe("[1]");
    expect(() => decodeUtf8("f.json", new Uint8Array(Buffer.from("\ufeff[1]", "utf16le")))).toThrow(
      /UTF-16 byte order mark/,
    );
    const broken = new Uint8Array([...utf8(`["${"x".repeat(100)}`), 0xc3, 0x28, 0x22, 0x5d]);
    expect(() => decodeUtf8("f.json", broken)).toThrow(FormatError);
    // The offset is found by bisection, to within 4 bytes.
    const offset = Number(/near offset (\d+)/.exec(messageOf(() => decodeUtf8("f.json", broken)))?.[1]);
    expect(offset).toBeGreaterThanOrEqual(102 - 4);
    expect(offset).toBeLessThanOrEqual(102);
  });
});

/**
 * What a text is, by definition. JSON Lines: its first line with text is a strict JSON value with more text after
 * it (then it cannot be one document), or it is no document and at least two of its lines, and at least
 * half, are JSON objects; it counts the lines that are values, and a bad line is that line's problem.
 * Else one JSON document (Python's NaN and Infinity allowed), or neither.
 */
function referenceKind(text: string): string {
  const parses = (l: string) => {
    try {
      JSON.parse(l);
      return true;
    } catch {
      return false;
    }
  };
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  // The first line with text, and whether any text follows it.
  const all = text.split("\n");
  const at = all.findIndex((l) => l.trim() !== "");
  const firstLine = all[at] ?? "";
  if (
    parses(firstLine) &&
    all
      .slice(at + 1)
      .join("\n")
      .trim() !== ""
  )
    return `jsonl ${lines.filter(parses).length}`;
  if (parses(text)) return "json";
  try {
    parsePyJson(text);
    return "json";
  } catch {
    // not one document: JSON Lines, perhaps
  }
  const values = lines.filter(parses).length;
  const objects = lines.filter((l) => {
    try {
      const v = JSON.parse(l);
      return typeof v === "object" && v !== null && !Array.isArray(v);
    } catch {
      return false;
    }
  }).length;
  return objects >= 2 && objects * 2 >= lines.length ? `jsonl ${values}` : "neither";
}

function kindOf(text: string): string {
  try {
    const doc = readJsonDocument("f.json", [], text);
    return doc.kind === "json" ? "json" : `jsonl ${doc.records}`;
  } catch (e) {
    if (e instanceof FormatError) return "neither";
    throw e;
  }
}

describe("readJsonDocument: JSON or JSON Lines", () => {
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
    fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v, null, 2)),
    // "\u00a0[1]": JS trims U+00A0 but JSON does not count it as whitespace.
    fc.constantFrom("{", "}", "[1,", '"open', "NaN", "", "  ", "\r", "\u00a0[1]", " { "),
  );

  it("classifies any mix of lines as the definition does", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), fc.constantFrom("\n", "\r\n"), (parts, eol) => {
        const text = parts.join(eol);
        fc.pre(text.trim() !== "");
        expect(kindOf(text)).toBe(referenceKind(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("keeps the edge cases apart", () => {
    expect(kindOf('{"a": 1}\n{"a": 2}')).toBe("jsonl 2");
    expect(kindOf('\n\n{"a": 1}\n\n[2]\n')).toBe("jsonl 2");
    expect(kindOf('{"a": 1}\n')).toBe("json");
    expect(kindOf("[1,\n2]\n")).toBe("json");
    // A first line that is a value makes JSON Lines; a cut last line is that line's problem.
    expect(kindOf('{"a": 1}\n{"a": ')).toBe("jsonl 1");
    expect(kindOf('{"a": \n{"a": 1}\n{"b": 2}')).toBe("jsonl 2");
    // A cut pretty-printed document: a few lines parse alone, most do not.
    expect(
      kindOf('{\n  "tags": [\n    "a",\n    "b"\n  ],\n  "more": [\n    {}\n  ],\n  "x": [\n    "c"\n'),
    ).toBe("neither");
    expect(kindOf('{"a": \n{"a": 1}')).toBe("neither");
    expect(kindOf("1\n2\n3")).toBe("jsonl 3");
  });
});
