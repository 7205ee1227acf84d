import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_PRESETS } from "../../dev/playground/page/faults";
import { playgroundRoutes, sandboxOriginOf } from "../../dev/playground/routes";
import { type RunningSandbox, startSandbox } from "../../dev/sandbox/index";

async function serve(handler: ReturnType<typeof playgroundRoutes>): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    if (!(await handler(req, res))) {
      res.writeHead(404);
      res.end("not a playground route");
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("playground routes to the sandbox", () => {
  let sandbox: RunningSandbox;
  let served: { url: string; server: Server };

  beforeAll(async () => {
    sandbox = await startSandbox({});
    served = await serve(playgroundRoutes({ sandboxOrigin: sandboxOriginOf(sandbox.url) }));
  });

  afterAll(async () => {
    served.server.close();
    await sandbox.close();
  });

  it("finds the sandbox origin from the API base URL", () => {
    expect(sandboxOriginOf("http://127.0.0.1:4567/v1")).toBe("http://127.0.0.1:4567");
  });

  it("sets and clears faults that the API then applies", async () => {
    const set = await fetch(`${served.url}/playground/sandbox/faults`, {
      method: "POST",
      body: JSON.stringify({ rules: [{ endpoint: "getFunds", fault: "status", status: 503, times: 1 }] }),
    });
    expect(set.status).toBe(200);
    const refused = await fetch(`${sandbox.url}/getFunds`, {
      headers: { authorization: `Bearer ${sandbox.token}` },
    });
    expect(refused.status).toBe(503);
    await fetch(`${served.url}/playground/sandbox/faults`, {
      method: "POST",
      body: JSON.stringify({ rules: [{ endpoint: "getFunds", fault: "status", status: 503 }] }),
    });
    const cleared = await fetch(`${served.url}/playground/sandbox/faults`, { method: "DELETE" });
    expect(cleared.status).toBe(200);
    const fine = await fetch(`${sandbox.url}/getFunds`, {
      headers: { authorization: `Bearer ${sandbox.token}` },
    });
    expect(fine.status).toBe(200);
  });

  it("switches setExpenseReportIntegration to POST: its PUT then answers 405, its POST is taken", async () => {
    const send = (method: string) =>
      fetch(`${sandbox.url}/setExpenseReportIntegration`, {
        method,
        headers: { authorization: `Bearer ${sandbox.token}`, "content-type": "application/json" },
        body: JSON.stringify({ Id: 100001, IntegrationStatus: 1, IntegrationCode: "R-1" }),
      });
    expect(await (await fetch(`${served.url}/playground/sandbox/methods`)).json()).toEqual({
      setExpenseReportIntegration: "PUT",
    });
    const set = await fetch(`${served.url}/playground/sandbox/methods`, {
      method: "POST",
      body: JSON.stringify({ setExpenseReportIntegration: "POST" }),
    });
    expect(await set.json()).toEqual({ setExpenseReportIntegration: "POST" });
    expect((await send("PUT")).status).toBe(405);
    expect((await send("POST")).status).toBe(200);
    await fetch(`${served.url}/playground/sandbox/methods`, {
      method: "POST",
      body: JSON.stringify({ setExpenseReportIntegration: "PUT" }),
    });
    expect((await send("PUT")).status).toBe(200);
  });

  it("offers only fault presets that the sandbox accepts", async () => {
    for (const preset of FAULT_PRESETS) {
      const set = await fetch(`${served.url}/playground/sandbox/faults`, {
        method: "POST",
        body: JSON.stringify(preset.faults),
      });
      expect({ preset: preset.id, status: set.status }).toEqual({ preset: preset.id, status: 200 });
    }
    await fetch(`${served.url}/playground/sandbox/faults`, { method: "DELETE" });
  });

  it("passes the sandbox's refusal of a bad fault body through", async () => {
    const bad = await fetch(`${served.url}/playground/sandbox/faults`, {
      method: "POST",
      body: JSON.stringify({ rules: [{ endpoint: "nope", fault: "status" }] }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/endpoint/);
  });

  it("refuses a wrong method and leaves other paths alone", async () => {
    expect((await fetch(`${served.url}/playground/sandbox/reset`, { method: "GET" })).status).toBe(405);
    expect((await fetch(`${served.url}/control/info`)).status).toBe(404);
  });
});

describe("playground routes to a sandbox of two companies", () => {
  let sandbox: RunningSandbox;
  let served: { url: string; server: Server };
  const getFunds = (token: string) =>
    fetch(`${sandbox.url}/getFunds?ResultsPerPage=1`, { headers: { authorization: `Bearer ${token}` } });
  const tokenOf = (name: string) => sandbox.companies.find((c) => c.name === name)?.token ?? "";

  beforeAll(async () => {
    sandbox = await startSandbox({ companies: 2, funds: 3, reports: 4 });
    served = await serve(playgroundRoutes({ sandboxOrigin: sandboxOriginOf(sandbox.url) }));
  });

  afterAll(async () => {
    served.server.close();
    await sandbox.close();
  });

  it("puts a fault on the company named by ?company= only, and clears it there", async () => {
    const down = { rules: [{ endpoint: "*", fault: "status", status: 503 }] };
    const set = await fetch(`${served.url}/playground/sandbox/faults?company=Beta`, {
      method: "POST",
      body: JSON.stringify(down),
    });
    expect(set.status).toBe(200);
    expect((await getFunds(tokenOf("Beta"))).status).toBe(503);
    expect((await getFunds(tokenOf("Alpha"))).status).toBe(200);
    const shown = await (await fetch(`${served.url}/playground/sandbox/faults?company=Beta`)).json();
    expect(shown.rules).toEqual([expect.objectContaining({ fault: "status", company: "Beta" })]);
    // Without ?company=, the sandbox's default: the first company's faults, Beta's untouched.
    expect((await (await fetch(`${served.url}/playground/sandbox/faults`)).json()).rules).toEqual([]);
    expect((await fetch(`${served.url}/playground/sandbox/faults`, { method: "DELETE" })).status).toBe(200);
    expect((await getFunds(tokenOf("Beta"))).status).toBe(503);
    const cleared = await fetch(`${served.url}/playground/sandbox/faults?company=beta`, { method: "DELETE" });
    expect(cleared.status).toBe(200);
    expect((await getFunds(tokenOf("Beta"))).status).toBe(200);
  });

  it("passes the sandbox's refusal of a company it does not serve through", async () => {
    const answer = await fetch(`${served.url}/playground/sandbox/faults?company=Gamma`, {
      method: "POST",
      body: JSON.stringify({ rules: [] }),
    });
    expect(answer.status).toBe(404);
    expect(await answer.text()).toMatch(/company/);
  });

  it("resets every company's demo data and faults; ?company= resets that one only", async () => {
    for (const name of ["Alpha", "Beta"]) {
      await fetch(`${served.url}/playground/sandbox/faults?company=${name}`, {
        method: "POST",
        body: JSON.stringify({ rules: [{ endpoint: "getFunds", fault: "status", status: 503 }] }),
      });
    }
    const reset = await fetch(`${served.url}/playground/sandbox/reset`, { method: "POST", body: "{}" });
    expect(reset.status).toBe(200);
    const body = (await reset.json()) as { companies: unknown[] };
    expect(body.companies).toHaveLength(2);
    for (const name of ["Alpha", "Beta"]) expect((await getFunds(tokenOf(name))).status).toBe(200);
    // Reset sizes are the demo's defaults (40 funds), not the start's 3.
    const total = async (name: string) =>
      ((await (await getFunds(tokenOf(name))).json()) as { Records: { TotalRecords: number } }).Records
        .TotalRecords;
    expect([await total("Alpha"), await total("Beta")]).toEqual([40, 40]);

    await fetch(`${served.url}/playground/sandbox/faults?company=Alpha`, {
      method: "POST",
      body: JSON.stringify({ rules: [{ endpoint: "getFunds", fault: "status", status: 503 }] }),
    });
    const one = await fetch(`${served.url}/playground/sandbox/reset?company=Beta`, {
      method: "POST",
      body: JSON.stringify({ funds: 2 }),
    });
    expect(one.status).toBe(200);
    expect(await total("Beta")).toBe(2);
    expect((await getFunds(tokenOf("Alpha"))).status).toBe(503);
    await fetch(`${served.url}/playground/sandbox/faults?company=Alpha`, { method: "DELETE" });
  });
});

describe("playground routes against another service", () => {
  it("explains that faults need the bundled sandbox", async () => {
    const served = await serve(playgroundRoutes({ sandboxOrigin: null }));
    try {
      const answer = await fetch(`${served.url}/playground/sandbox/faults`, { method: "DELETE" });
      expect(answer.status).toBe(409);
      expect((await answer.json()).error).toMatch(/need the bundled sandbox/);
    } finally {
      served.server.close();
    }
  });
});

describe("dev/playground/README.md", () => {
  it("lists the playground's routes with the methods they take, each answered (not 404 or 405)", async () => {
    const readme = readFileSync(new URL("../../dev/playground/README.md", import.meta.url), "utf8");
    const rows = readme.split("\n").filter((line) => /^\| `(GET|POST|DELETE)[^|]*\/playground\//.test(line));
    expect(rows.length).toBe(3);
    const served = await serve(playgroundRoutes({ sandboxOrigin: null }));
    try {
      for (const row of rows) {
        const cell = row.split("|")[1] ?? "";
        const path = /\/playground\/[^`\s]*/.exec(cell)?.[0] ?? "";
        for (const method of [...cell.matchAll(/\b(GET|POST|DELETE)\b/g)].map((m) => m[1] as string)) {
          const answer = await fetch(`${served.url}${path}?company=Beta`, {
            method,
            ...(method === "POST" ? { body: "{}" } : {}),
          });
          // No sandbox behind: 409 for every route and method it takes.
          expect({ row: `${method} ${path}`, status: answer.status }).toEqual({
            row: `${method} ${path}`,
            status: 409,
          });
        }
      }
    } finally {
      served.server.close();
    }
  });
});
