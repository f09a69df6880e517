/** The live judge's reply cache in a store: loaded before grading, extended after. */
import type { JudgmentCache } from "../graders/tau3/judge/cache.ts";
import type { VerdictStore } from "./store.ts";

export async function loadJudgments(store: VerdictStore, cache: JudgmentCache): Promise<void> {
  cache.load(
    await store.query<{ key: string; base_url: string; model: string; content: string; created_at: string }>(
      "SELECT key, base_url, model, content, created_at FROM judgments",
    ),
  );
}

/** Writes the replies judged since the last save. */
export async function saveJudgments(store: VerdictStore, cache: JudgmentCache): Promise<number> {
  const fresh = cache.takeFresh();
  if (fresh.length > 0) await store.append("judgments", fresh);
  return fresh.length;
}
