/** The version the tool states is package.json's. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_VERSION } from "../../src/util/package.ts";

describe("the tool's version", () => {
  it("is package.json's", () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, "../../package.json"), "utf8"));
    expect(TOOL_VERSION).toBe(manifest.version);
  });
});
