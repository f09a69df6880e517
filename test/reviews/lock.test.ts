import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ReviewEntry, readReviewFile, upsertReview } from "../../src/reviews/file.ts";
import { updateReviewFile, withReviewsLock } from "../../src/reviews/lock.ts";

const entry = (reference: string): ReviewEntry => ({
  fingerprint: "a".repeat(64),
  simulation_id: "s1",
  path: "f.json",
  grader: "structured",
  kind: "requirement",
  reference,
  verdict: "confirmed",
  reason: "turn 3",
});

const fresh = () => join(mkdtempSync(join(tmpdir(), "tr-lock-")), "reviews", "x.json");

describe("updateReviewFile", () => {
  it("waits for another writer holding the lock, then reads what it saved", async () => {
    const path = fresh();
    updateReviewFile(path, (f) => f);
    const other = { version: 1, reviews: [entry("a.2")] };
    // Another process (a terminal walk) holds the lock, and saves its review 300 ms later.
    const child = spawn(process.execPath, [
      "-e",
      `const fs = require("node:fs");
       fs.writeFileSync(process.argv[1] + ".lock", String(process.pid));
       process.stdout.write("locked\\n");
       setTimeout(() => { fs.writeFileSync(process.argv[1], process.argv[2]); fs.unlinkSync(process.argv[1] + ".lock"); }, 300);`,
      path,
      JSON.stringify(other),
    ]);
    await new Promise((ok) => child.stdout.once("data", ok));
    updateReviewFile(path, (f) => upsertReview(f, entry("a.1")).file);
    await new Promise((ok) => child.on("exit", ok));
    const refs = readReviewFile(path).reviews.map((e) => e.reference);
    expect(refs.sort()).toEqual(["a.1", "a.2"]);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("leaves the file's bytes alone when the change changes nothing", () => {
    const path = fresh();
    updateReviewFile(path, (f) => upsertReview(f, entry("a.1")).file);
    const unsorted = `${readFileSync(path, "utf8").trimEnd()}  \n`;
    writeFileSync(path, unsorted);
    updateReviewFile(path, (f) => f);
    expect(readFileSync(path, "utf8")).toBe(unsorted);
  });

  it("takes over a lock whose process is gone", async () => {
    const path = fresh();
    updateReviewFile(path, (f) => f);
    const child = spawn(process.execPath, ["-e", "0"]);
    const pid = child.pid as number;
    await new Promise((ok) => child.on("exit", ok));
    writeFileSync(`${path}.lock`, String(pid));
    updateReviewFile(path, (f) => upsertReview(f, entry("a.3")).file);
    expect(readReviewFile(path).reviews).toHaveLength(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("waits for a live holder, and lets go when the body throws", () => {
    const path = fresh();
    expect(() =>
      withReviewsLock(path, () => {
        expect(existsSync(`${path}.lock`)).toBe(true);
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
