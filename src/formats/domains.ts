/** The tau2 domains this tool knows, in one place: parsers infer them, `domains/` implements each. */
export const DOMAIN_NAMES = ["airline", "retail", "telecom", "mock", "banking_knowledge"] as const;
export type DomainName = (typeof DOMAIN_NAMES)[number];

export const isDomainName = (s: string): s is DomainName => (DOMAIN_NAMES as readonly string[]).includes(s);
