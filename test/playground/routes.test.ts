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
