/**
 * The tau2 domains this tool knows, in one place: parsers infer them, `domain-facts.ts` holds what is known
 * of each, `domains/` implements each.
 */
export const DOMAIN_NAMES = ["airline", "retail", "telecom", "mock", "banking_knowledge"] as const;
export type DomainName = (typeof DOMAIN_NAMES)[number];

export const isDomainName = (s: string): s is DomainName => (DOMAIN_NAMES as readonly string[]).includes(s);

/** tau2 treats `telecom-workflow` as telecom with another policy: same tools and grading. */
const ALIASES: Readonly<Record<string, DomainName>> = { "telecom-workflow": "telecom" };

/** The domain a file's domain name is graded as, or undefined when this tool has none. */
export function canonicalDomainName(name: string): DomainName | undefined {
  const key = Object.hasOwn(ALIASES, name) ? ALIASES[name] : name;
  return key !== undefined && isDomainName(key) ? key : undefined;
}
