/**
 * The knowledge-base tools of tau2's default retrieval variant `alltools` (`KnowledgeToolsAllTools`:
 * BM25 search, dense search, read-only shell). All are READ: replay skips them and they never touch
 * the DB, so their names and types are all we need; running one is not reproduced.
 */

import { EXIT_INTERNAL, RescoreError } from "../../../util/errors.ts";
import type { ToolDef } from "../../toolkit.ts";

/**
 * Search indexes, embeddings and a sandbox are outside this port: a JS error, so a call is reported
 * as a port limitation (`internal`), never passed off as tau2's output.
 */
export class RetrievalNotReproduced extends RescoreError {
  override readonly code = "retrieval_not_reproduced";
  override readonly exitStatus = EXIT_INTERNAL;

  override readonly name = "RetrievalNotReproduced";
}

function retrievalTool(name: string, params: ToolDef["params"]): ToolDef {
  return {
    name,
    kind: "read",
    params,
    reproduced: false,
    run() {
      throw new RetrievalNotReproduced(
        `${name} is a knowledge-base retrieval tool, not reproduced by tau-rescore`,
      );
    },
  };
}

export const RETRIEVAL_TOOLS: readonly ToolDef[] = [
  retrievalTool("KB_search_bm25", [{ name: "query" }, { name: "k", default: 10 }]),
  retrievalTool("KB_search_dense", [{ name: "query" }, { name: "k", default: 10 }]),
  retrievalTool("shell", [{ name: "command" }]),
];
