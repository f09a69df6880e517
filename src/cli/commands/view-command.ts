/** `tau-rescore view` as a library function: `startView` serves and returns a handle; the command waits for Ctrl-C. */
import { existsSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { basename, resolve, sep } from "node:path";
import { createAdaptorServer } from "@hono/node-server";
import { installAnalyses } from "../../analysis/run.ts";
import { importGraderModules } from "../../experiments/grader-modules.ts";
import { printable } from "../../reviews/terminal.ts";
import { layersOf } from "../../util/layers.ts";
import { LIMITS } from "../../util/limits.ts";
import { newToken, TOKEN_PARAM } from "../../view/access.ts";
import { viewApp } from "../../view/app.ts";
import { numberArg } from "../args.ts";
import { reviewerDefault } from "../env.ts";
import type { ReviewCommandIo } from "../io.ts";
import { openStoreReadOnly, overlayReviewsFile, storeSources } from "../report-store.ts";
import { checkRunOf } from "../reviews-source.ts";

export interface ViewOptions {
  db?: string;
  reviews?: string;
  run?: string;
  port?: string;
  reviewer?: string;
  seed?: string;
  memoryLimit?: string;
}

export interface ViewHandle {
  /** The URL to open, with the access token. */
  readonly url: string;
  readonly port: number;
  readonly reviewsFile: string;
  close(): Promise<void>;
}

/** A fixture's text by the label `coverage` records (`<requirements folder name>/<path>`), from the experiment's folders only. */
function fixtureReader(folders: readonly string[]): (label: string) => string | null {
  const cache = new Map<string, string | null>();
  return (label) => {
    if (!cache.has(label)) {
      let text: string | null = null;
      for (const folder of folders) {
        const root = resolve(folder);
        const prefix = `${basename(root)}/`;
        if (!label.startsWith(prefix)) continue;
        const file = resolve(root, label.slice(prefix.length));
        if (!file.startsWith(root + sep) || !existsSync(file)) continue;
        text = readFileSync(file, "utf8");
      }
      cache.set(label, text);
    }
    return cache.get(label) ?? null;
  };
}

/** Opens the store read-only, lays the reviews file over it and listens on 127.0.0.1. */
export async function startView(
  experiment: string,
  opts: ViewOptions,
  io: ReviewCommandIo,
): Promise<ViewHandle> {
  const port = numberArg("--port", opts.port ?? "0", LIMITS.viewPort);
  const sampleSeed = numberArg("--seed", opts.seed ?? "0", LIMITS.sampleSeed);
  const src = storeSources("view", {
    experiment,
    ...(opts.db === undefined ? {} : { db: opts.db }),
    ...(opts.reviews === undefined ? {} : { reviews: opts.reviews }),
    ...(opts.memoryLimit === undefined ? {} : { memoryLimit: opts.memoryLimit }),
  });
  const exp = src.exp;
  if (exp === null || src.reviews === null) throw new Error("view: an experiment names its reviews file");
  await importGraderModules(exp.graderModules);
  const store = await openStoreReadOnly(src.db, src.memoryLimit);
  try {
    await overlayReviewsFile(store, src, opts.run);
    const run = checkRunOf(await installAnalyses(store, opts.run), exp.config.name, src.db);
    let listening = port;
    const token = newToken();
    const reviewer = opts.reviewer ?? reviewerDefault(io.env) ?? null;
    const app = viewApp({
      store,
      run,
      experiment: exp.config.name,
      db: src.db,
      reviewsFile: src.reviews.path,
      token,
      port: () => listening,
      reviewer,
      today: io.today,
      fixtureText: fixtureReader(layersOf(exp.requirementsDir)),
      sampleSeed,
    });
    const server = createAdaptorServer({ fetch: app.fetch });
    await new Promise<void>((ok, fail) => {
      server.once("error", fail);
      server.listen(port, "127.0.0.1", () => ok());
    });
    listening = (server.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${listening}/?${TOKEN_PARAM}=${token}`;
    let closed = false;
    return {
      url,
      port: listening,
      reviewsFile: src.reviews.path,
      close: async () => {
        if (closed) return;
        closed = true;
        await new Promise<void>((ok) => {
          server.close(() => ok());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        store.close();
      },
    };
  } catch (e) {
    store.close();
    throw e;
  }
}

/** Serves until SIGINT or SIGTERM, then closes the server and the store. */
export async function viewCommand(experiment: string, opts: ViewOptions, io: ReviewCommandIo): Promise<void> {
  const view = await startView(experiment, opts, io);
  io.stdout.write(`${view.url}\n`);
  io.stderr.write(
    printable(`serving on 127.0.0.1 only; reviews are written to ${view.reviewsFile}; Ctrl-C stops`) + "\n",
  );
  const signals = io.signals;
  if (signals === undefined) return await view.close();
  await new Promise<void>((done) => {
    const removers = (["SIGINT", "SIGTERM"] as const).map((s) =>
      signals.once(s, () => {
        for (const r of removers) r();
        done();
      }),
    );
  });
  await view.close();
  io.stderr.write("stopped\n");
}
