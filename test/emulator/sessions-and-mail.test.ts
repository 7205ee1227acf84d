import { resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createEmulator } from "../../dev/emulator/index";

const em = createEmulator({
  distDir: resolve(import.meta.dirname, "../fixtures/emulator/no-scopes/dist"),
  users: ["ana@example.com", "maria@gmail.com"],
  consumerUsers: ["maria@gmail.com"],
});
afterAll(() => em.close());

describe("a manifest without oauthScopes", () => {
  it("lets the script send mail, recorded with its sender", () => {
    expect(em.run("notify", ["controller@example.com"])).toBe(99);
    expect(em.mails).toEqual([
      expect.objectContaining({
        from: "ana@example.com",
        to: "controller@example.com",
        subject: "Scheduled refresh failed",
      }),
    ]);
  });
});

describe("who runs", () => {
  it("hides the active user in simple triggers and for consumer accounts, not the effective user", () => {
    expect(em.run("whoRuns")).toBe("ana@example.com|ana@example.com");
    expect(em.run("whoRuns", [], { as: "simple" })).toBe("|ana@example.com");
    expect(em.run("whoRuns", [], { user: "maria@gmail.com" })).toBe("|maria@gmail.com");
  });
  it("records each execution with its user, kind and outcome", () => {
    em.tryRun("whoRuns", [], { as: "trigger", user: "maria@gmail.com" });
    expect(em.executions.slice(-1)[0]).toMatchObject({
      functionName: "whoRuns",
      user: "maria@gmail.com",
      kind: "trigger",
      ok: true,
    });
  });
});
