/** The knowledge-base tools are declared (replay must know they are reads) but never run. */
import { describe, expect, it } from "vitest";
import { bankingDomain } from "../../../src/domains/banking_knowledge/index.ts";
import { DbState } from "../../../src/domains/db-state.ts";
import { TAU2_QUIRKS } from "../../../src/domains/quirks.ts";
import { invoke, mutatesState } from "../../../src/domains/toolkit.ts";
import type { PyDict } from "../../../src/py/value.ts";
import { DATA_DIR } from "./helpers.ts";

describe("banking retrieval tools", () => {
  const db = DbState.of(bankingDomain.loadAgentDb(DATA_DIR));
  for (const name of ["KB_search_bm25", "KB_search_dense", "shell"]) {
    it(`${name} is a read the replay skips, and running it is a port fault, not a tau2 result`, () => {
      const tool = bankingDomain.agentTools.tools.get(name);
      expect(tool).toBeDefined();
      if (tool === undefined) return;
      expect(mutatesState(tool)).toBe(false);
      expect(tool.reproduced).toBe(false);
      const args: PyDict = name === "shell" ? { command: "ls" } : { query: "card" };
      const out = invoke("KnowledgeTools", tool, db, args, { shared: new Map(), quirks: TAU2_QUIRKS });
      expect(out.internal).toBe(true);
      expect(out.content).toMatch(/not reproduced by tau-rescore/);
    });
  }
});
