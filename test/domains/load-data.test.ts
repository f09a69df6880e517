/** The cross-process cache of validated domain DBs (`loadAgentBase`). */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { airlineDomain } from "../../src/domains/airline/index.ts";
import type { DbBase } from "../../src/domains/db-state.ts";
import type { DomainDef } from "../../src/domains/domain.ts";
import { loadAgentBase } from "../../src/domains/load-data.ts";
import { retailDomain } from "../../src/domains/retail/index.ts";
import { pyDumps } from "../../src/py/json.ts";
import { type PyDict, PyFloat } from "../../src/py/value.ts";
import { DATA_DIR } from "../helpers/data.ts";
import { errorOf } from "../helpers/errors.ts";

const tempDir = (): string => mkdtempSync(join(tmpdir(), "tau-rescore-db-cache-"));

/** Python's dump of the DB (key order and int/float types), and what DbBase was built with. */
const described = (db: DbBase) => ({
  className: db.className,
  layout: db.layout,
  tableNotes: db.tableNotes,
  dump: pyDumps(db.root),
});

/** A domain whose loader counts its calls: a cache hit does not call it. */
const counting = (domain: DomainDef) => {
  const loadAgentDb = vi.fn((dataDir: string) => domain.loadAgentDb(dataDir));
  return { domain: { ...domain, loadAgentDb }, loadAgentDb };
};

/** A one-user airline DB whose gift card amount is written `amount` (a float field either way). */
function airlineDataDir(amount: string): string {
  const dataDir = tempDir();
  mkdirSync(join(dataDir, "domains", "airline"), { recursive: true });
  writeAirlineDb(dataDir, amount);
  return dataDir;
}

function writeAirlineDb(dataDir: string, amount: string): void {
  const user = {
    user_id: "u1",
    name: { first_name: "Ada", last_name: "Byron" },
    address: { address1: "1 Way", city: "C", country: "US", state: "CA", zip: "90001" },
    email: "ada@example.com",
    dob: "1990-01-01",
    payment_methods: { gift_card_1: { source: "gift_card", id: "gift_card_1", amount: "AMOUNT" } },
    saved_passengers: [],
    membership: "gold",
    reservations: [],
  };
  const text = JSON.stringify({ flights: {}, users: { u1: user }, reservations: {} }).replace(
    '"AMOUNT"',
    amount,
  );
  writeFileSync(join(dataDir, "domains", "airline", "db.json"), text);
}

const giftCardAmount = (db: DbBase): unknown =>
  (((db.root.users as PyDict).u1 as PyDict).payment_methods as PyDict).gift_card_1 as PyDict;

describe("loadAgentBase", () => {
  it.each([airlineDomain, retailDomain])(
    "gives back the $name DB as validated, from the cache too",
    (domain) => {
      const cacheDir = tempDir();
      const fresh = described(domain.loadAgentDb(DATA_DIR));
      const { domain: d, loadAgentDb } = counting(domain);
      expect(described(loadAgentBase(DATA_DIR, d, cacheDir))).toEqual(fresh);
      expect(described(loadAgentBase(DATA_DIR, d, cacheDir))).toEqual(fresh);
      expect(loadAgentDb).toHaveBeenCalledTimes(1);
    },
  );

  it("keeps floats floats and validates again when the file's content changes", () => {
    const cacheDir = tempDir();
    const dataDir = airlineDataDir("100");
    const { domain, loadAgentDb } = counting(airlineDomain);
    loadAgentBase(dataDir, domain, cacheDir);
    const hit = loadAgentBase(dataDir, domain, cacheDir);
    expect(loadAgentDb).toHaveBeenCalledTimes(1);
    expect(giftCardAmount(hit)).toStrictEqual({
      source: "gift_card",
      id: "gift_card_1",
      amount: new PyFloat(100),
    });

    writeAirlineDb(dataDir, "250.5");
    const changed = loadAgentBase(dataDir, domain, cacheDir);
    expect(loadAgentDb).toHaveBeenCalledTimes(2);
    expect(giftCardAmount(changed)).toMatchObject({ amount: new PyFloat(250.5) });
    // One entry per content: both stay (young entries are not pruned).
    expect(readdirSync(cacheDir).filter((f) => f.startsWith("db-airline-"))).toHaveLength(2);
  });

  it("validates again when an entry cannot be read", () => {
    const cacheDir = tempDir();
    const dataDir = airlineDataDir("100");
    const { domain, loadAgentDb } = counting(airlineDomain);
    loadAgentBase(dataDir, domain, cacheDir);
    for (const f of readdirSync(cacheDir)) writeFileSync(join(cacheDir, f), '{"root": ');
    expect(giftCardAmount(loadAgentBase(dataDir, domain, cacheDir))).toMatchObject({
      amount: new PyFloat(100),
    });
    expect(loadAgentDb).toHaveBeenCalledTimes(2);
  });

  it("an invalid DB fails as the domain's loader says, and is not cached", () => {
    const cacheDir = tempDir();
    const dataDir = airlineDataDir('"lots"');
    const expected = errorOf(() => airlineDomain.loadAgentDb(dataDir));
    expect(errorOf(() => loadAgentBase(dataDir, airlineDomain, cacheDir))).toEqual(expected);
    expect(readdirSync(cacheDir)).toEqual([]);
  });
});
