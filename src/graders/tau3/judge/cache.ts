/**
 * Judge replies by content: the key is the sha256 of everything that decides a reply (base URL,
 * model, temperature, extra request parameters and the exact messages), so a re-run, or another
 * experiment over the same conversations, asks nothing again, and a changed model or prompt misses.
 * Only replies that parse are kept: a failed call is asked again next time.
 */
import { stableJson } from "../../../formats/stable-json.ts";
import { sha256Hex } from "../../../py/json.ts";
import type { ChatMessage } from "./prompt.ts";

export interface JudgmentKeyParts {
  readonly baseUrl: string;
  readonly model: string;
  readonly temperature: number;
  readonly params: Readonly<Record<string, unknown>>;
  readonly messages: readonly ChatMessage[];
}

export const judgmentKey = (p: JudgmentKeyParts): string =>
  sha256Hex(
    stableJson({
      base_url: p.baseUrl,
      model: p.model,
      temperature: p.temperature,
      params: p.params,
      messages: p.messages,
    }),
  );

/** One stored reply (the `judgments` table's row). */
export interface Judgment {
  readonly key: string;
  readonly base_url: string;
  readonly model: string;
  /** The reply's message content, as the judge sent it. */
  readonly content: string;
  readonly created_at: string;
}

export class JudgmentCache {
  private readonly byKey = new Map<string, Judgment>();
  private fresh: Judgment[] = [];

  constructor(stored: Iterable<Judgment> = []) {
    this.load(stored);
  }

  /** Replies already stored (not written again). */
  load(stored: Iterable<Judgment>): void {
    for (const j of stored) this.byKey.set(j.key, j);
  }

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): Judgment | undefined {
    return this.byKey.get(key);
  }

  put(j: Judgment): void {
    if (this.byKey.has(j.key)) return;
    this.byKey.set(j.key, j);
    this.fresh.push(j);
  }

  /** The replies added since the last call (to be written to the store). */
  takeFresh(): Judgment[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}
