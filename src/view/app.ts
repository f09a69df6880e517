/**
 * The web app of `tau-rescore view`: Hono routes over one store opened read-only and the experiment's
 * reviews file. Requests are checked by `refusalOf` before any route runs. No request names a file: the
 * store is reached through bound SQL parameters, the reviews file is the one the experiment names, and
 * fixtures are read only by the labels the store recorded.
 */

import { statSync } from "node:fs";
import { Hono } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { RunInfo } from "../analysis/run.ts";
import { CAUSE_KIND_NAMES } from "../graders/causes.ts";
import {
  type ReviewFile,
  readReviewFile,
  reviewEntrySchema,
  reviewKey,
  sampledKey,
  sampledReviewSchema,
  upsertReview,
  upsertSampled,
} from "../reviews/file.ts";
import { updateReviewFile } from "../reviews/lock.ts";
import { saveReviews } from "../reviews/store.ts";
import type { VerdictStore } from "../store/store.ts";
import { EXIT_USAGE, RescoreError } from "../util/errors.ts";
import { LIMITS, type NumberRange, outOfRange, parseInRange } from "../util/limits.ts";
import { z } from "../util/zod.ts";
import { refusalOf, TOKEN_COOKIE, TOKEN_PARAM } from "./access.ts";
import { CLIENT_SCRIPT } from "./client.ts";
import {
  type FlipFilter,
  findById,
  flipPage,
  nextUnreviewedFlip,
  REVIEW_STATES,
  runOverview,
  samplePage,
  simulationPage,
} from "./data.ts";
import {
  comparisonPage,
  comparisonPath,
  errorPage,
  findPage,
  runPage,
  type StaleEntry,
  samplePageHtml,
  simulationPageHtml,
  simulationPath,
  stalePage,
} from "./pages.ts";

export interface ViewContext {
  readonly store: VerdictStore;
  readonly run: RunInfo;
  readonly experiment: string;
  readonly db: string;
  readonly reviewsFile: string;
  readonly token: string;
  /** The port the server listens on (known once it listens): `Host` and `Origin` must name it. */
  readonly port: () => number;
  readonly reviewer: string | null;
  readonly today: () => string;
  readonly fixtureText: (label: string) => string | null;
  /** The seed the sample page draws with unless the URL says. */
  readonly sampleSeed: number;
}

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A review request the page posts; anything else is a 400 naming the field. */
const text = z.string().trim().min(1);
const flipReviewRequest = z.strictObject({
  sim_key: text,
  grader: text,
  kind: text,
  reference: text,
  verdict: text,
  reason: text,
  reviewer: text,
  fingerprint: z.string().optional(),
});
const flipWithdrawRequest = z.strictObject({
  fingerprint: text,
  grader: text,
  kind: z.enum(CAUSE_KIND_NAMES),
  reference: text,
});
const sampleRequest = z.strictObject({
  sim_key: text,
  comparison: text,
  seed: z.string().regex(/^\d+$/, "a non-negative integer"),
  verdict: text,
  turns: z.string().optional(),
  reason: text,
  reviewer: text,
  fingerprint: z.string().optional(),
});
const sampleWithdrawRequest = z.strictObject({ fingerprint: text, comparison: text });

/** A request the page cannot serve: answered with its HTTP status and the message, never a crash. */
class RequestError extends RescoreError {
  override readonly code = "view_request";
  override readonly exitStatus = EXIT_USAGE;
  override readonly name = "RequestError";
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

const parseBody = <T>(schema: z.ZodType<T>, body: unknown): T => {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const i = r.error.issues[0];
  throw new RequestError(400, `${i?.path.join(".") || "body"}: ${i?.message ?? "invalid"}`);
};

/** A number from the URL in its documented range (`LIMITS`), or `fallback` when absent. */
const intParam = (name: string, v: string | undefined, fallback: number, range: NumberRange): number => {
  if (v === undefined || v === "") return fallback;
  const n = parseInRange(range, v);
  if (n === null) throw new RequestError(400, `${name}: ${outOfRange(range, v)}`);
  return n;
};

export function viewApp(ctx: ViewContext): Hono {
  const app = new Hono();
  // One DuckDB connection serves every request: its queries run one after another.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(body: () => Promise<T>): Promise<T> => {
    const run = queue.then(body, body);
    queue = run.catch(() => undefined);
    return run;
  };
  const cookieName = () => `${TOKEN_COOKIE}_${ctx.port()}`;

  // Reviews another writer saved (a terminal `review walk`) show on the next page: the file is laid
  // over the store again whenever its size or time changed.
  let seen: string | null = null;
  const stampOf = (): string => {
    const st = statSync(ctx.reviewsFile, { throwIfNoEntry: false });
    return st === undefined ? "none" : `${st.mtimeMs}:${st.size}`;
  };
  const loadReviews = async (file: ReviewFile, stamp: string): Promise<void> => {
    await saveReviews(ctx.store, ctx.experiment, file.reviews, file.sampled);
    seen = stamp;
  };
  const freshReviews = async (): Promise<void> => {
    const stamp = stampOf();
    if (stamp !== seen) await loadReviews(readReviewFile(ctx.reviewsFile), stamp);
  };

  app.use("*", async (c, next) => {
    const fromUrl = c.req.query(TOKEN_PARAM) ?? null;
    const refusal = refusalOf(
      {
        method: c.req.method,
        host: c.req.header("host") ?? null,
        origin: c.req.header("origin") ?? null,
        fetchSite: c.req.header("sec-fetch-site") ?? null,
        token: fromUrl ?? getCookie(c, cookieName()) ?? null,
      },
      ctx.token,
      ctx.port(),
    );
    if (refusal !== null) return c.text(`${refusal.reason}\n`, refusal.status);
    c.header("Content-Security-Policy", CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cache-Control", "no-store");
    if (fromUrl !== null && c.req.method === "GET") {
      // The token moves into a cookie and out of the address bar (and of any link copied from it).
      setCookie(c, cookieName(), ctx.token, { httpOnly: true, sameSite: "Strict", path: "/" });
      const url = new URL(c.req.url);
      url.searchParams.delete(TOKEN_PARAM);
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    if (!c.req.path.startsWith("/assets/")) await serial(freshReviews);
    await next();
  });

  app.onError((e, c) => {
    const status = e instanceof RequestError ? e.status : 500;
    const message = e instanceof Error ? e.message : String(e);
    if (c.req.path.startsWith("/api/")) return c.json({ error: message }, status);
    return c.html(errorPage(status, message), status);
  });
  app.notFound((c) => c.html(errorPage(404, `no page ${c.req.path}`), 404));

  app.get("/assets/view.js", (c) => {
    c.header("Content-Type", "text/javascript; charset=utf-8");
    return c.body(CLIENT_SCRIPT);
  });

  app.get("/", async (c) =>
    c.html(runPage(await serial(() => runOverview(ctx.store, ctx.run)), ctx.db, ctx.reviewsFile)),
  );

  const knownComparison = async (name: string): Promise<void> => {
    const [k] = await ctx.store.query("SELECT 1 FROM run_comparisons WHERE comparison = $1", [name]);
    if (k === undefined)
      throw new RequestError(404, `no comparison ${JSON.stringify(name)} in run ${ctx.run.run_id}`);
  };

  app.get("/comparison/:name", async (c) => {
    const name = c.req.param("name");
    const q = c.req.query();
    const review = q.review;
    if (review !== undefined && review !== "" && !(REVIEW_STATES as readonly string[]).includes(review))
      throw new RequestError(400, `review: one of ${REVIEW_STATES.join(", ")}`);
    const f: FlipFilter = {
      ...(q.domain ? { domain: q.domain } : {}),
      ...(q.model ? { model: q.model } : {}),
      ...(q.task ? { task: q.task } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      ...(review ? { review } : {}),
      ...(q.q ? { q: q.q } : {}),
      ...(q.excluded === "1" ? { excluded: true } : {}),
    };
    const [page, next] = await serial(async () => {
      await knownComparison(name);
      return [await flipPage(ctx.store, name, f), await nextUnreviewedFlip(ctx.store, name)] as const;
    });
    return c.html(comparisonPage(name, f, page, next, ctx.sampleSeed));
  });

  app.get("/comparison/:name/sample", async (c) => {
    const name = c.req.param("name");
    const n = intParam("n", c.req.query("n"), 5, LIMITS.sampleSize);
    const seed = intParam("seed", c.req.query("seed"), ctx.sampleSeed, LIMITS.sampleSeed);
    const { draw, rows } = await serial(async () => {
      await knownComparison(name);
      return await samplePage(ctx.store, name, n, seed);
    });
    return c.html(samplePageHtml(name, n, seed, draw, rows));
  });

  app.get("/simulation/:key", async (c) => {
    const key = c.req.param("key");
    const comparison = c.req.query("comparison") || undefined;
    const seedText = c.req.query("seed");
    const seed =
      seedText === undefined || seedText === ""
        ? undefined
        : intParam("seed", seedText, 0, LIMITS.sampleSeed);
    const n = seed === undefined ? undefined : intParam("n", c.req.query("n"), 5, LIMITS.sampleSize);
    const page = await serial(() => simulationPage(ctx.store, ctx.run, key, ctx.db));
    if (page === null) throw new RequestError(404, `no simulation with key ${key} in run ${ctx.run.run_id}`);
    const next = `/next?${new URLSearchParams({
      ...(comparison === undefined ? {} : { comparison }),
      ...(seed === undefined ? {} : { seed: String(seed), n: String(n) }),
    }).toString()}`;
    return c.html(
      simulationPageHtml(page, {
        simKey: key,
        ...(comparison === undefined ? {} : { comparison }),
        ...(seed === undefined ? {} : { seed }),
        ...(n === undefined ? {} : { n }),
        next,
        reviewer: ctx.reviewer,
        fixtureText: ctx.fixtureText,
      }),
    );
  });

  app.get("/find", async (c) => {
    const id = (c.req.query("id") ?? "").trim();
    if (id === "") return c.redirect("/", 303);
    const found = await serial(() => findById(ctx.store, id));
    const exact = found.filter((f) => f.simulation_id === id || f.sim_key === id);
    const only = exact.length === 1 ? exact[0] : found.length === 1 ? found[0] : undefined;
    if (only !== undefined) return c.redirect(simulationPath(only.sim_key), 303);
    return c.html(findPage(id, found));
  });

  app.get("/next", async (c) => {
    const comparison = c.req.query("comparison") || undefined;
    const seedText = c.req.query("seed");
    const target = await serial(async () => {
      if (comparison !== undefined) await knownComparison(comparison);
      if (comparison !== undefined && seedText !== undefined && seedText !== "") {
        const seed = intParam("seed", seedText, 0, LIMITS.sampleSeed);
        const n = intParam("n", c.req.query("n"), 5, LIMITS.sampleSize);
        const { rows } = await samplePage(ctx.store, comparison, n, seed);
        const next = rows.find((r) => r.verdict === null);
        return next === undefined
          ? `${comparisonPath(comparison)}/sample?n=${n}&seed=${seed}`
          : simulationPath(next.sim_key, { comparison, seed, n });
      }
      const names =
        comparison === undefined
          ? (
              await ctx.store.query<{ comparison: string }>(
                "SELECT comparison FROM run_comparisons ORDER BY seq",
              )
            ).map((r) => r.comparison)
          : [comparison];
      for (const name of names) {
        const sim = await nextUnreviewedFlip(ctx.store, name);
        if (sim !== null) return simulationPath(sim, { comparison: name });
      }
      return comparison === undefined ? "/" : comparisonPath(comparison);
    });
    return c.redirect(target, 303);
  });

  app.get("/stale", async (c) => {
    const entries = await serial(async () => [
      ...(
        await ctx.store.query<Omit<StaleEntry, "kind" | "what"> & { cause: string; kind: string }>(
          `SELECT simulation_id, path, fingerprint, cause, verdict, reason, stale_reason, grader, kind AS cause_kind, reference
           FROM review_status WHERE stale ORDER BY path, simulation_id, grader, kind, reference`,
        )
      ).map((r): StaleEntry => ({ ...r, kind: "flip", what: r.cause })),
      ...(
        await ctx.store.query<Omit<StaleEntry, "kind" | "what">>(
          `SELECT simulation_id, path, fingerprint, comparison, verdict, reason, stale_reason
           FROM sample_review_status WHERE stale ORDER BY comparison, path, simulation_id`,
        )
      ).map((r): StaleEntry => ({ ...r, kind: "sample", what: r.comparison ?? "" })),
    ]);
    return c.html(stalePage(entries));
  });

  /** Writes the reviews file under its lock, then lays it over the store again so every page shows it. */
  const saveFile = async (change: (f: ReviewFile) => ReviewFile): Promise<void> => {
    const file = updateReviewFile(ctx.reviewsFile, change);
    await loadReviews(file, stampOf());
  };

  const jsonBody = async (c: {
    req: { header: (n: string) => string | undefined; json: () => Promise<unknown> };
  }) => {
    if (!(c.req.header("content-type") ?? "").startsWith("application/json"))
      throw new RequestError(400, "send JSON (content-type: application/json)");
    try {
      return await c.req.json();
    } catch {
      throw new RequestError(400, "the body is not JSON");
    }
  };

  app.post("/api/review", async (c) => {
    const r = parseBody(flipReviewRequest, await jsonBody(c));
    const replaced = await serial(async () => {
      const [t] = await ctx.store.query<{
        fingerprint: string | null;
        simulation_id: string | null;
        path: string;
      }>(
        `SELECT fingerprint, simulation_id, path FROM review_targets
         WHERE sim_key = $1 AND grader = $2 AND kind = $3 AND reference = $4 LIMIT 1`,
        [r.sim_key, r.grader, r.kind, r.reference],
      );
      if (t === undefined)
        throw new RequestError(
          404,
          `${r.kind}:${r.reference} (${r.grader}) is not a flip cause of simulation ${r.sim_key} in this run`,
        );
      if (t.fingerprint === null)
        throw new RequestError(
          409,
          "the run stored no fingerprint for this simulation: a review could not be matched to it again",
        );
      const entry = parseBody(reviewEntrySchema, {
        fingerprint: t.fingerprint,
        simulation_id: t.simulation_id,
        path: t.path,
        grader: r.grader,
        kind: r.kind,
        reference: r.reference,
        verdict: r.verdict,
        reason: r.reason,
        reviewer: r.reviewer,
        date: ctx.today(),
      });
      let replaced = false;
      await saveFile((f) => {
        const next = upsertReview(f, entry);
        replaced = next.replaced;
        return next.file;
      });
      return replaced;
    });
    return c.json({ ok: true, replaced });
  });

  app.post("/api/review/withdraw", async (c) => {
    const r = parseBody(flipWithdrawRequest, await jsonBody(c));
    await serial(async () => {
      let found = false;
      await saveFile((f) => {
        const rest = f.reviews.filter((e) => reviewKey(e) !== reviewKey(r));
        found = rest.length !== f.reviews.length;
        return found ? { ...f, reviews: rest } : f;
      });
      if (!found) throw new RequestError(404, "no such review in the reviews file (withdrawn already?)");
    });
    return c.json({ ok: true });
  });

  app.post("/api/sample", async (c) => {
    const r = parseBody(sampleRequest, await jsonBody(c));
    const replaced = await serial(async () => {
      const [pv] = await ctx.store.query<{
        fingerprint: string | null;
        simulation_id: string | null;
        path: string;
      }>(
        `SELECT x.fingerprint, pv.simulation_id, pv.path FROM pair_verdicts pv
         LEFT JOIN (SELECT sc.sim_key, sc.fingerprint FROM sim_context sc JOIN current_run r USING (run_id)) x USING (sim_key)
         WHERE pv.sim_key = $1 AND pv.comparison = $2 AND pv.baseline_pass AND pv.candidate_pass`,
        [r.sim_key, r.comparison],
      );
      if (pv === undefined)
        throw new RequestError(
          404,
          `both sides of ${r.comparison} do not pass simulation ${r.sim_key}: it is not in its sample`,
        );
      if (pv.fingerprint === null)
        throw new RequestError(
          409,
          "the run stored no fingerprint for this simulation: a review could not be matched to it again",
        );
      const turns = (r.turns ?? "").trim();
      if (r.verdict === "missed" && turns === "")
        throw new RequestError(400, "turns: a missed violation names the turns where it happens");
      const entry = parseBody(sampledReviewSchema, {
        fingerprint: pv.fingerprint,
        simulation_id: pv.simulation_id,
        path: pv.path,
        comparison: r.comparison,
        seed: Number(r.seed),
        verdict: r.verdict,
        reason: turns === "" ? r.reason : `turns ${turns}: ${r.reason}`,
        reviewer: r.reviewer,
        date: ctx.today(),
      });
      let replaced = false;
      await saveFile((f) => {
        const next = upsertSampled(f, entry);
        replaced = next.replaced;
        return next.file;
      });
      return replaced;
    });
    return c.json({ ok: true, replaced });
  });

  app.post("/api/sample/withdraw", async (c) => {
    const r = parseBody(sampleWithdrawRequest, await jsonBody(c));
    await serial(async () => {
      let found = false;
      await saveFile((f) => {
        const old = f.sampled ?? [];
        const rest = old.filter((e) => sampledKey(e) !== sampledKey(r));
        found = rest.length !== old.length;
        return found ? { ...f, sampled: rest } : f;
      });
      if (!found)
        throw new RequestError(404, "no such sampled review in the reviews file (withdrawn already?)");
    });
    return c.json({ ok: true });
  });

  return app;
}
