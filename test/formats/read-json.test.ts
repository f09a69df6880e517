import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FormatError } from "../../src/formats/errors.ts";
import { decodeUtf8 } from "../../src/formats/read-json.ts";

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
