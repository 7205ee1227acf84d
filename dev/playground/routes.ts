/**
 * The playground's own routes, added to the control server: the page cannot reach the sandbox's
 * /_sandbox routes itself (another origin), so the fault panel goes through these.
 *
 * - `POST /playground/sandbox/faults` (body as POST /_sandbox/faults), `DELETE` clears them,
 *   `GET` shows them; `?company=<name>` acts on that company's faults (passed on as the
 *   sandbox's own `?company=`; absent: the first company's, as the sandbox's default)
 * - `POST /playground/sandbox/reset` resets the demo data of every company the sandbox serves
 *   (their faults cleared too); `?company=<name>` resets that company's only
 * - `GET`, `POST /playground/sandbox/methods` (body as POST /_sandbox/methods): the method
 *   setExpenseReportIntegration takes (`{"setExpenseReportIntegration": "POST"}` makes its PUT
 *   answer 405); `?company=<name>` as for the faults
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface PlaygroundRouteOptions {
  /** Scheme, host and port of the sandbox (its /_sandbox routes hang from here), or null when
   * the playground runs against another service that has no fault injection. */
  sandboxOrigin: string | null;
}

/** Handles a playground route; resolves to false for any other path. */
export type PlaygroundRoute = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

const FORWARDED: Record<string, readonly string[]> = {
  "/playground/sandbox/faults": ["POST", "DELETE", "GET"],
  "/playground/sandbox/reset": ["POST"],
  "/playground/sandbox/methods": ["GET", "POST"],
};

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

/** The sandbox origin for an API base URL such as http://127.0.0.1:4567/v1. */
export function sandboxOriginOf(apiUrl: string): string {
  return new URL(apiUrl).origin;
}

/** The names of the companies the sandbox serves (null: the one of a sandbox that names none). */
async function servedCompanies(origin: string): Promise<Array<string | null>> {
  const info = (await (await fetch(`${origin}/_sandbox`)).json()) as {
    companies?: Array<{ name?: unknown }>;
  };
  const names = (info.companies ?? []).map((c) => c.name).filter((n): n is string => typeof n === "string");
  return names.length > 1 ? names : [null];
}

export function playgroundRoutes(options: PlaygroundRouteOptions): PlaygroundRoute {
  return async (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const methods = FORWARDED[path];
    if (!methods) return false;
    const method = req.method ?? "GET";
    if (!methods.includes(method)) {
      json(res, 405, { error: `${path} takes ${methods.join(", ")}, not ${method}` });
      return true;
    }
    if (!options.sandboxOrigin) {
      json(res, 409, {
        error: "Faults and resets need the bundled sandbox; this playground is connected to another service",
      });
      return true;
    }
    const company = new URL(req.url ?? "/", "http://localhost").searchParams.get("company");
    const route = `${options.sandboxOrigin}/_sandbox/${path.slice("/playground/sandbox/".length)}`;
    const target = (name: string | null) =>
      name === null ? route : `${route}?company=${encodeURIComponent(name)}`;
    try {
      const body = method === "GET" || method === "DELETE" ? undefined : await readText(req);
      const init: RequestInit = { method, headers: { "content-type": "application/json" } };
      if (body !== undefined) init.body = body || "{}";
      // A reset of the demo is a reset of every company; a fault is one company's.
      const names =
        path === "/playground/sandbox/reset" && company === null
          ? await servedCompanies(options.sandboxOrigin)
          : [company];
      let answer: { status: number; text: string } = { status: 200, text: "{}" };
      const answers: unknown[] = [];
      for (const name of names) {
        const reply = await fetch(target(name), init);
        answer = { status: reply.status, text: await reply.text() };
        if (answer.status !== 200) break;
        answers.push(JSON.parse(answer.text) as unknown);
      }
      res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8" });
      // Several companies reset: the first one's answer (as the sandbox's own route gives it),
      // with every company's in `companies`.
      res.end(
        answer.status === 200 && names.length > 1
          ? JSON.stringify({ ...(answers[0] as object), companies: answers })
          : answer.text,
      );
    } catch (err) {
      json(res, 502, {
        error: `The sandbox did not answer: ${err instanceof Error ? err.message : String(err)}`,
      });
    }
    return true;
  };
}
