/**
 * Domain variants: a domain copied under another name with some of its documents replaced, as research
 * forks do to test another policy (`airline_tighter_policy`: airline's tools and DB, another policy.md).
 *
 * A data dir declares one as `domains/<name>/variant.json` (`{"extends": "airline"}`); each file of that
 * folder (policy.md, tasks.json, db.json, ...) replaces the base's file of the same name. A name without
 * a folder can be mapped to a base (`domain_as`, `--domain-as name=base`): graded as the base, documents
 * and all. A variant is graded with the base's tools and code, on a data dir where its own documents stand
 * in for the base's (`overlayDataDir`), so everything that reads documents reads the variant's: its tasks,
 * its policy (a policy clause whose quote the variant's policy lacks does not apply), its DB.
 *
 * Only documents can differ: a variant whose tools differ from its base cannot be declared this way.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { DOMAIN_NAMES, type DomainName, isDomainName } from "../formats/domains.ts";
import { describeZodError } from "../formats/zod-issues.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { overlayRoot } from "../util/overlay-root.ts";
import { isSafeName, joinBelow, UnsafeNameError, unsafeNameReason } from "../util/safe-name.ts";
import { z } from "../util/zod.ts";

export const VARIANT_FILE = "variant.json";

/** A variant declaration or mapping that cannot be used: a usage mistake, named with its file. */
export class VariantError extends RescoreError {
  readonly code = "variant";
  readonly exitStatus = EXIT_USAGE;
}

const declarationSchema = z.strictObject({
  extends: z.enum(DOMAIN_NAMES, {
    error: (i) => `${JSON.stringify(i.input)} is not a domain this tool grades (${DOMAIN_NAMES.join(", ")})`,
  }),
});

/** A variant and where its documents are. */
export interface DomainVariant {
  readonly name: string;
  readonly base: DomainName;
  /** `domains/<name>/` of the data dir, or null for a name only mapped to its base. */
  readonly dir: string | null;
}

/**
 * `<folder>/domains/<name>` (of a data dir or an overlay): a domain name that is not one path segment is
 * refused before any path is built.
 */
function domainFolder(folder: string, name: string): string {
  try {
    return joinBelow(join(folder, "domains"), "domain name", name);
  } catch (e) {
    if (e instanceof UnsafeNameError) throw new VariantError(e.message);
    throw e;
  }
}

/** `domains/<name>/variant.json` of a data dir, read; null when there is none. Throws `VariantError`. */
export function readVariant(dataDir: string, name: string): DomainVariant | null {
  const dir = domainFolder(dataDir, name);
  const file = join(dir, VARIANT_FILE);
  if (!existsSync(file)) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new VariantError(`${file}: invalid JSON: ${(e as Error).message}`);
  }
  const parsed = declarationSchema.safeParse(raw);
  if (!parsed.success) throw new VariantError(`${file}: ${describeZodError(parsed.error)}`);
  return { name, base: parsed.data.extends, dir };
}

/**
 * The variant a domain name is, from its folder or else the mapping; null for a name that is neither
 * (a base domain, or one this tool does not grade). A mapped name with a folder of its own is refused.
 */
export function variantOf(
  dataDir: string,
  name: string,
  domainAs: Readonly<Record<string, string>> = {},
): DomainVariant | null {
  if (isDomainName(name)) return null;
  const declared = readVariant(dataDir, name);
  const mapped = Object.hasOwn(domainAs, name) ? domainAs[name] : undefined;
  if (declared !== null) {
    if (mapped !== undefined && mapped !== declared.base)
      throw new VariantError(
        `--domain-as ${name}=${mapped}: ${join(declared.dir as string, VARIANT_FILE)} declares it extends ${declared.base}`,
      );
    return declared;
  }
  if (mapped === undefined) return null;
  if (!isDomainName(mapped))
    throw new VariantError(
      `--domain-as ${name}=${mapped}: ${mapped} is not a domain this tool grades (${DOMAIN_NAMES.join(", ")})`,
    );
  return { name, base: mapped, dir: null };
}

/** `name=base` pairs (the `--domain-as` flag), as a mapping. */
export function parseDomainAs(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const m = /^([^=\s]+)=([^=\s]+)$/.exec(p);
    if (m === null)
      throw new VariantError(`--domain-as ${p}: expected NAME=BASE, e.g. airline_tighter_policy=airline`);
    for (const name of [m[1] as string, m[2] as string])
      if (!isSafeName(name)) throw new VariantError(`--domain-as ${p}: ${unsafeNameReason(name)}`);
    out[m[1] as string] = m[2] as string;
  }
  return out;
}

/** Where a variant's overlay lives: one folder per data dir, variant and content of its own files. */
function overlayKey(dataDir: string, v: DomainVariant): string {
  const h = createHash("sha256").update(`${resolve(dataDir)}\u0000${v.name}\u0000${v.base}`);
  if (v.dir !== null)
    for (const f of readdirSync(v.dir).sort()) {
      const st = statSync(join(v.dir, f));
      h.update(`\u0000${f}\u0000${st.size}\u0000${st.mtimeMs}`);
    }
  return h.digest("hex").slice(0, 24);
}

const overlays = new Map<string, string>();

/**
 * A data dir in which the variant's files stand in for its base's: `domains/<base>/` (and the same folder
 * as `domains/<name>/`) links every file of the base's folder, or the variant's file of that name; every
 * other entry of the data dir is linked as it is. Built once per process and content, atomically (grading
 * threads may build it at once), and only below `overlayRoot()`.
 */
export function overlayDataDir(dataDir: string, v: DomainVariant): string {
  const key = overlayKey(dataDir, v);
  const known = overlays.get(key);
  if (known !== undefined && existsSync(known)) return known; // gone once the overlays were removed
  const root = overlayRoot();
  const target = join(root, key);
  // The variant's name becomes a link in the overlay: one segment, below the root, checked before any write.
  domainFolder(target, v.name);
  if (!existsSync(target)) {
    const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    mkdirSync(join(tmp, "domains"), { recursive: true });
    for (const entry of readdirSync(dataDir))
      if (entry !== "domains") symlinkSync(resolve(dataDir, entry), join(tmp, entry));
    for (const d of readdirSync(join(dataDir, "domains")))
      if (d !== v.base && d !== v.name) symlinkSync(resolve(dataDir, "domains", d), join(tmp, "domains", d));
    const merged = join(tmp, "domains", v.base);
    mkdirSync(merged);
    const own = new Set(v.dir === null ? [] : readdirSync(v.dir).filter((f) => f !== VARIANT_FILE));
    for (const f of readdirSync(join(dataDir, "domains", v.base)))
      if (!own.has(f)) symlinkSync(resolve(dataDir, "domains", v.base, f), join(merged, f));
    for (const f of own) symlinkSync(resolve(v.dir as string, f), join(merged, f));
    if (v.name !== v.base) symlinkSync(v.base, domainFolder(tmp, v.name));
    try {
      renameSync(tmp, target);
    } catch {
      rmSync(tmp, { recursive: true, force: true }); // another thread built it first
    }
  }
  overlays.set(key, target);
  return target;
}
