/** The sidebar's typed google.script.run wrapper and the escaping helper (src/ui/client). */
import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "../../src/ui/client/escape";
import { MAX_CONCURRENT_CALLS, type ScriptRunner, serverFunctions } from "../../src/ui/client/server";

interface Server {
  add(a: number, b: number): number;
  fail(): void;
  notAFunction: string;
}

/** A google.script.run stand-in whose calls finish when the test says so. */
function fakeRunner(impl: Record<string, (...args: unknown[]) => unknown>) {
  const pending: (() => void)[] = [];
  let active = 0;
  let maxActive = 0;
  const make = (ok?: (v: unknown) => void, fail?: (e: Error) => void): ScriptRunner =>
    new Proxy({} as ScriptRunner, {
      get(_t, name: string) {
        if (name === "withSuccessHandler") return (f: (v: unknown) => void) => make(f, fail);
        if (name === "withFailureHandler") return (f: (e: Error) => void) => make(ok, f);
        const fn = impl[name];
        if (!fn) return undefined;
        return (...args: unknown[]) => {
          active++;
          maxActive = Math.max(maxActive, active);
          pending.push(() => {
            active--;
            try {
              ok?.(fn(...args));
            } catch (err) {
              fail?.(err as Error);
            }
          });
        };
      },
    });
  return {
    runner: () => make(),
    flush: () => {
      while (pending.length) pending.shift()!();
    },
    stats: () => ({ maxActive, pending: pending.length }),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("serverFunctions", () => {
  it("turns a server function into a promise of its result", async () => {
    const fake = fakeRunner({ add: (a, b) => (a as number) + (b as number) });
    const server = serverFunctions<Server>(fake.runner);
    const sum = server.add(2, 3);
    fake.flush();
    await expect(sum).resolves.toBe(5);
  });

  it("rejects with the server's error", async () => {
    const fake = fakeRunner({
      fail: () => {
        throw new Error("adminId: must be a whole number");
      },
    });
    const result = serverFunctions<Server>(fake.runner).fail();
    fake.flush();
    await expect(result).rejects.toThrow("adminId: must be a whole number");
  });

  it("rejects a function the server does not have", async () => {
    const server = serverFunctions<Record<string, () => void>>(fakeRunner({}).runner);
    await expect(server.renamed!()).rejects.toThrow("no function named renamed");
  });

  it("rejects clearly outside a sidebar", async () => {
    const server = serverFunctions<Server>();
    await expect(server.add(1, 2)).rejects.toThrow("google.script.run is not available");
  });

  it("runs at most 10 calls at once; the others wait their turn", async () => {
    const fake = fakeRunner({ add: (a, b) => (a as number) + (b as number) });
    const server = serverFunctions<Server>(fake.runner);
    const calls = Array.from({ length: 25 }, (_, i) => server.add(i, 1));
    expect(fake.stats()).toEqual({ maxActive: MAX_CONCURRENT_CALLS, pending: MAX_CONCURRENT_CALLS });
    for (let round = 0; round < 5; round++) {
      fake.flush();
      await tick();
    }
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(fake.stats().maxActive).toBe(MAX_CONCURRENT_CALLS);
  });

  it("is typed by the server module: a wrong name or argument does not compile", () => {
    const server = serverFunctions<Server>(fakeRunner({}).runner);
    // @ts-expect-error: the server has no function named "subtract".
    void server.subtract;
    // @ts-expect-error: add takes numbers.
    void (() => server.add("1", 2));
    // @ts-expect-error: only functions are callable.
    void server.notAFunction;
    expect(typeof server.add).toBe("function");
  });
});

describe("escaping", () => {
  it("escapes every character that could open markup or end an attribute", () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&\``)).toBe(
      "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;&#96;",
    );
    expect(escapeHtml(null)).toBe("");
    expect(escapeHtml(12.5)).toBe("12.5");
  });

  it("html`` escapes values but keeps markup built with it", () => {
    const name = "<b>Ana</b>";
    const items = ["<1>", "2"].map((x) => html`<li>${x}</li>`);
    expect(html`<p title="${name}">${name}</p><ul>${items}</ul>`.toString()).toBe(
      '<p title="&lt;b&gt;Ana&lt;/b&gt;">&lt;b&gt;Ana&lt;/b&gt;</p><ul><li>&lt;1&gt;</li><li>2</li></ul>',
    );
  });
});
