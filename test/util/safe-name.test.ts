/** One rule for names that become part of a path: one segment, never a way to another folder. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isSafeName,
  isWithin,
  joinBelow,
  SAFE_NAME_MAX_BYTES,
  unsafeNameReason,
} from "../../src/util/safe-name.ts";

describe("unsafeNameReason", () => {
  it.each([
    ["", /empty/],
    [".", /not a name/],
    ["..", /not a name/],
    ["../../x2", /\//],
    ["a/b", /\//],
    ["a\\b", /\\/],
    ["a\u0000b", /control/],
    ["a\nb", /control/],
    ["x".repeat(SAFE_NAME_MAX_BYTES + 1), /at most 240 bytes/],
    ["é".repeat(121), /at most 240 bytes \(this one takes 242\)/],
  ])("refuses %j", (name, why) => {
    expect(unsafeNameReason(name)).toMatch(why);
  });

  it.each([
    "airline",
    "airline_tighter_policy",
    "..foo",
    "[mobile_data_issue]airplane_mode_on|data_mode_off[PERSONA:Easy]",
    "x".repeat(SAFE_NAME_MAX_BYTES),
  ])("accepts %j", (name) => {
    expect(unsafeNameReason(name)).toBeNull();
  });

  it("a safe name joined below a folder stays below it", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (name) => {
        if (!isSafeName(name)) return;
        expect(isWithin("/data/domains", joinBelow("/data/domains", "test", name))).toBe(true);
      }),
    );
  });
});

describe("joinBelow", () => {
  it("names where the name came from", () => {
    expect(() => joinBelow("/data", "x.json: at info.domain", "../etc")).toThrow(
      'x.json: at info.domain: "../etc": a name may not hold / or \\',
    );
  });
});
