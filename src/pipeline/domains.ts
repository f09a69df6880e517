/**
 * The domain a file is graded as: a base domain by name (aliases resolved), or a variant of one (a
 * `domains/<name>/variant.json` of the data dir, or the run's `domain_as` mapping), graded with the base's
 * definition on a data dir where the variant's documents stand in for the base's (`variants.ts`).
 */
import { type DomainDef, defineDomain } from "../domains/domain.ts";
import { loadDomain } from "../domains/load.ts";
import { overlayDataDir, VariantError, variantOf } from "../domains/variants.ts";
import { keyedCache } from "../util/keyed-cache.ts";
import { ContextPool } from "./contexts.ts";

export type FileDomain =
  | { readonly def: DomainDef; readonly pool: ContextPool }
  | { readonly error: string }
  /** A name this tool does not grade. */
  | null;

/** One definition per variant (caches key on the definition object), one context pool per overlay. */
const variantDefs = new Map<string, DomainDef>();
const overlayPools = keyedCache<ContextPool, string, ContextPool>();

export async function fileDomain(
  name: string | null,
  pool: ContextPool,
  domainAs: Readonly<Record<string, string>> = {},
): Promise<FileDomain> {
  if (name === null) return null;
  const base = await loadDomain(name);
  if (base !== undefined) return { def: base, pool };
  let variant: ReturnType<typeof variantOf>;
  try {
    variant = variantOf(pool.dataDir, name, domainAs);
  } catch (e) {
    if (e instanceof VariantError) return { error: e.message };
    throw e;
  }
  if (variant === null) return null;
  const key = `${variant.base}\u0000${variant.name}`;
  let def = variantDefs.get(key);
  if (def === undefined) {
    const baseDef = (await loadDomain(variant.base)) as DomainDef;
    def = defineDomain({ ...baseDef, variant: variant.name });
    variantDefs.set(key, def);
  }
  const dir = overlayDataDir(pool.dataDir, variant);
  return { def, pool: overlayPools(pool, dir, () => new ContextPool(dir, pool.quirks)) };
}
