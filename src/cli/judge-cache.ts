/** `grade --judge-cache FILE`: judge replies kept in a DuckDB file (a verdict store's `judgments`). */
import type { JudgmentCache } from "../graders/tau3/judge/cache.ts";
import { loadJudgments, saveJudgments } from "../store/judgments.ts";
import { StoreError, VerdictStore } from "../store/store.ts";
import { InputError } from "./errors.ts";

export async function loadJudgeCache(path: string, cache: JudgmentCache): Promise<VerdictStore> {
  let store: VerdictStore;
  try {
    store = await VerdictStore.open(path);
  } catch (e) {
    if (e instanceof StoreError) throw new InputError(`--judge-cache ${e.message}`);
    throw e;
  }
  await loadJudgments(store, cache);
  return store;
}

export async function saveJudgeCache(store: VerdictStore, cache: JudgmentCache): Promise<void> {
  try {
    await saveJudgments(store, cache);
  } finally {
    store.close();
  }
}
