/**
 * Loads a domain's DBs from a tau2 data dir, once per process. The DBs whose schema validation is
 * slow are also kept across processes (and grading threads) as the validated value, keyed by the DB
 * file's content hash and the code that validated it.
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DOMAIN_FACTS } from "../formats/domain-facts.ts";
import { type PyDict, PyFloat } from "../py/value.ts";
import { CACHE_DIR, codeFingerprint } from "../util/code-cache.ts";
import { DbBase, type Layout } from "./db-state.ts";
import type { DomainData, DomainDef } from "./domain.ts";

const loaded = new Map<string, DomainData>();

export function loadDomainData(dataDir: string, domain: DomainDef): DomainData {
  const key = `${resolve(dataDir)}\u0000${domain.name}`;
  let hit = loaded.get(key);
  if (hit === undefined) {
    const agentBase = loadAgentBase(dataDir, domain);
    hit = {
      domain,
      dataDir: resolve(dataDir),
      agentBase,
      // One DB object for both toolkits (banking): the user base is the agent base.
      userBase: domain.sharedDb
        ? agentBase
        : domain.loadUserDb === undefined
          ? null
          : domain.loadUserDb(dataDir),
    };
    loaded.set(key, hit);
  }
  return hit;
}

/** Entries of another DB file content or code version are deleted once this old. */
const STALE_MS = 60 * 60 * 1000;

let codeVersion: string | undefined;

/** A changed source (a schema, this file's format) must not read an older entry. */
function cacheCodeVersion(): string {
  codeVersion ??= codeFingerprint();
  return codeVersion;
}

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** `domain.loadAgentDb`, from the cache when this DB file content was validated before. */
export function loadAgentBase(dataDir: string, domain: DomainDef, cacheDir: string = CACHE_DIR): DbBase {
  const file = DOMAIN_FACTS[domain.name].cachedAgentDbFile;
  if (file === null) return domain.loadAgentDb(dataDir);
  const dbPath = join(dataDir, "domains", domain.name, file);
  let contentHash: string;
  try {
    contentHash = sha256(readFileSync(dbPath));
  } catch {
    return domain.loadAgentDb(dataDir); // it reports the unreadable file
  }
  const prefix = `db-${domain.name}-`;
  const entry = join(
    cacheDir,
    `${prefix}${sha256(Buffer.from(`${contentHash}:${cacheCodeVersion()}`)).slice(0, 32)}.json`,
  );
  const cached = readEntry(entry);
  if (cached !== null) return cached;
  const db = domain.loadAgentDb(dataDir);
  // Stored only if the file did not change while it was loaded (else the entry would lie about it).
  if (sha256(readFileSync(dbPath)) === contentHash) writeEntry(entry, db, cacheDir, prefix);
  return db;
}

type Path = readonly (string | number)[];

interface Entry {
  readonly className: string;
  readonly layout: Layout;
  readonly tableNotes: Readonly<Record<string, string>>;
  readonly root: PyDict;
  /** Each PyFloat's path and value text: JSON would give them back as ints (and NaN as null). */
  readonly floats: readonly (readonly [Path, string])[];
}

/**
 * The PyFloats of `v` with their paths, or null when `v` holds a value that JSON would not give back
 * as it is (a bigint, -0, undefined, another class's instance): such a DB is not cached.
 */
function floatsOf(
  v: unknown,
  path: (string | number)[] = [],
  out: [Path, string][] = [],
): [Path, string][] | null {
  if (v instanceof PyFloat) {
    out.push([[...path], Object.is(v.v, -0) ? "-0" : String(v.v)]);
    return out;
  }
  if (typeof v === "number") return Number.isFinite(v) && !Object.is(v, -0) ? out : null;
  if (v === null || typeof v === "string" || typeof v === "boolean") return out;
  if (typeof v !== "object" || (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype))
    return null;
  const items: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  for (const [key, x] of items) {
    path.push(key);
    const ok = floatsOf(x, path, out);
    path.pop();
    if (ok === null) return null;
  }
  return out;
}

function readEntry(entry: string): DbBase | null {
  let e: Entry;
  try {
    e = JSON.parse(readFileSync(entry, "utf8")) as Entry;
  } catch {
    return null; // no entry yet, or an unreadable one: validate again (and rewrite it)
  }
  for (const [path, text] of e.floats) {
    let parent = e.root as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    parent[path[path.length - 1] as string | number] = new PyFloat(Number(text));
  }
  return new DbBase(e.className, e.layout, e.root, e.tableNotes);
}

function writeEntry(entry: string, db: DbBase, cacheDir: string, prefix: string): void {
  // A subclass would come back as a plain DbBase: not cached.
  if (Object.getPrototypeOf(db) !== DbBase.prototype) return;
  const floats = floatsOf(db.root);
  if (floats === null) return;
  const value: Entry = {
    className: db.className,
    layout: db.layout,
    tableNotes: db.tableNotes,
    root: db.root,
    floats,
  };
  try {
    mkdirSync(cacheDir, { recursive: true });
    // Written aside and renamed into place: a concurrent reader sees the whole entry or none.
    const partial = `${entry}.${randomUUID()}.partial`;
    writeFileSync(partial, JSON.stringify(value));
    renameSync(partial, entry);
    pruneStale(cacheDir, prefix, entry);
  } catch {
    // a read-only checkout: every process validates the DB itself
  }
}

function pruneStale(cacheDir: string, prefix: string, current: string): void {
  const now = Date.now();
  for (const name of readdirSync(cacheDir)) {
    const path = join(cacheDir, name);
    if (!name.startsWith(prefix) || path === current) continue;
    try {
      if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
    } catch {
      // another process pruned it first
    }
  }
}
