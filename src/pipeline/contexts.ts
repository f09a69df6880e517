/** One grading context per (data dir, domain, quirk set): gold targets are shared across files. */
import type { DomainDef } from "../domains/domain.ts";
import { loadDomainData } from "../domains/load-data.ts";
import type { Quirks } from "../domains/quirks.ts";
import { GradingContext } from "../graders/context.ts";

export class ContextPool {
  private readonly pool = new Map<string, GradingContext>();

  constructor(
    readonly dataDir: string,
    readonly quirks: Quirks,
  ) {}

  get(domain: DomainDef): GradingContext {
    let ctx = this.pool.get(domain.name);
    if (ctx === undefined) {
      ctx = new GradingContext(loadDomainData(this.dataDir, domain), this.quirks);
      this.pool.set(domain.name, ctx);
    }
    return ctx;
  }
}
