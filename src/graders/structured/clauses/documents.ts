/**
 * The texts a clause may quote: a domain's policy files (`versions/<v>/…` where a task version has its
 * own), and the documents of its knowledge base (one `{id, title, content}` JSON file each), whose
 * quotes sit in `content`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DomainDef } from "../../../domains/domain.ts";
import type { ClauseSource } from "./schema.ts";

/** A domain's policy document as of a task version: `versions/<v>/…` when the version has its own. */
export function policyPath(dataDir: string, domain: string, file: string, version?: string): string {
  if (version !== undefined && !version.startsWith("head")) {
    const own = join(dataDir, "versions", version, "domains", domain, file);
    if (existsSync(own)) return own;
  }
  return join(dataDir, "domains", domain, file);
}

/** Knowledge bases by folder: their documents' `content` by id (read once per process). */
const knowledgeBases = new Map<string, ReadonlyMap<string, string>>();

function knowledgeBase(dir: string): ReadonlyMap<string, string> {
  let docs = knowledgeBases.get(dir);
  if (docs === undefined) {
    const byId = new Map<string, string>();
    for (const name of readdirSync(dir).sort()) {
      if (!name.endsWith(".json")) continue;
      const doc: unknown = JSON.parse(readFileSync(join(dir, name), "utf8"));
      if (doc === null || typeof doc !== "object") continue;
      const { id, content } = doc as { id?: unknown; content?: unknown };
      if (typeof id === "string" && typeof content === "string") byId.set(id, content);
    }
    docs = byId;
    knowledgeBases.set(dir, docs);
  }
  return docs;
}

/** How messages name a source: `main_policy.md`, or `KB document doc_…`. */
export const sourceLabel = (s: ClauseSource): string => ("file" in s ? s.file : `KB document ${s.document}`);

/** Where a source's quote is looked for, or why it cannot be read. */
export type SourceText = { readonly text: string } | { readonly problem: string };

export function sourceText(
  dataDir: string,
  domain: DomainDef,
  source: ClauseSource,
  version?: string,
): SourceText {
  if ("file" in source) {
    const path = policyPath(dataDir, domain.name, source.file, version);
    if (!existsSync(path)) return { problem: `policy document ${source.file} not found (${path})` };
    return { text: readFileSync(path, "utf8") };
  }
  if (domain.knowledgeBase === undefined)
    return {
      problem: `${domain.name} has no knowledge base, so no source can be document ${source.document}`,
    };
  const dir = policyPath(dataDir, domain.name, domain.knowledgeBase, version);
  if (!existsSync(dir)) return { problem: `knowledge base ${domain.knowledgeBase} not found (${dir})` };
  const content = knowledgeBase(dir).get(source.document);
  if (content === undefined)
    return { problem: `KB document ${source.document} is not in the knowledge base (${dir})` };
  return { text: content };
}
