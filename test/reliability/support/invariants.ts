/** Checks shared by the fuzz suites: no prototype pollution, and case counting for the closing report. */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";

const PROTOTYPES = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
};

function snapshot(): string {
  return Object.entries(PROTOTYPES)
    .map(([name, proto]) => `${name}:${Reflect.ownKeys(proto).map(String).sort().join(",")}`)
    .join("\n");
}

const before = snapshot();

/** Fails when a case added a key to a built-in prototype (`({}).polluted`, `Object.prototype` keys). */
export function expectNoPrototypePollution(): void {
  const probe: Record<string, unknown> = {};
  if (
    probe.polluted !== undefined ||
    snapshot() !== before ||
    Object.getPrototypeOf(probe) !== Object.prototype
  ) {
    expect.fail(`prototype polluted: ({}).polluted = ${String(probe.polluted)}\n${snapshot()}`);
  }
}

/** Counts fuzz cases per suite and property; printed at the end and written for the closing note. */
export class CaseCounter {
  private readonly counts = new Map<string, number>();
  crashes = 0;
  constructor(readonly suite: string) {}

  hit(property: string): void {
    this.counts.set(property, (this.counts.get(property) ?? 0) + 1);
  }

  total(): number {
    return [...this.counts.values()].reduce((a, b) => a + b, 0);
  }

  report(): void {
    const lines = [...this.counts].map(([p, n]) => `  ${p}: ${n}`);
    console.log(`[fuzz] ${this.suite}: ${this.total()} cases, ${this.crashes} crashes\n${lines.join("\n")}`);
    const dir = join(tmpdir(), "tau-rescore-fuzz");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${this.suite}.json`),
      JSON.stringify({ suite: this.suite, cases: Object.fromEntries(this.counts), crashes: this.crashes }),
    );
  }
}

/** fast-check settings: a fixed seed (reproducible in CI) unless FUZZ_SEED asks for another. */
export const fuzzParams = (numRuns: number) => ({
  numRuns,
  seed: process.env.FUZZ_SEED === undefined ? 20261129 : Number(process.env.FUZZ_SEED),
  endOnFailure: true,
});
