/**
 * Every client comes from `companyConnections`, chosen by a company's key: the first company
 * keeps a one-company spreadsheet's rules and messages (a token bound to another URL refused
 * with today's notice, none saved, the document's IdAdmin with this user's issue), and a second
 * company listed without a token is unusable with its reason, never reached with another's.
 */
import { describe, expect, it } from "vitest";
import type { CallEvent } from "../../src/api";
import { type ConnectionServices, companyConnections } from "../../src/app/company-clients";
import type { CompanyKey } from "../../src/company/model";
import { companyKeyFromUuid, createSettingsStore, type SettingsStore } from "../../src/settings";
import { settingsIssueText } from "../../src/settings/words";
import { fakeClock, fixture, ok, scriptedTransport } from "../api/fakes";
import { memoryStore } from "../settings/stores";

const URL_A = "https://api.rindegastos.com/v1";
const URL_B = "https://beta.example.com/v1";
const ANA_TOKEN = "ana-token-alpha-0001";
const ANA_BETA = "ana-token-beta-00002";

/** One document, its token owner Ana and another editor Luis; Ana's requests recorded. */
function team(replies = [ok(fixture("getFunds.json")), ok(fixture("getFunds.json"))]) {
  const document = memoryStore({ "settings.form": JSON.stringify({ baseUrl: URL_A }) });
  const ana = memoryStore();
  const asAna = createSettingsStore({ document: document.store, user: ana.store });
  const asLuis = createSettingsStore({ document: document.store, user: memoryStore().store });
  const wire = scriptedTransport(replies);
  const services = (store: SettingsStore): ConnectionServices => ({
    store,
    transport: wire.transport,
    clock: fakeClock().clock,
  });
  return { document, ana, asAna, asLuis, wire, services };
}

function connect(services: ConnectionServices, purpose: "read" | "write" = "read") {
  const seen: Record<CompanyKey, CallEvent[]> = {};
  const connections = companyConnections(
    {
      purpose,
      language: "en",
      audit: (company) => {
        const events: CallEvent[] = [];
        seen[company.key] = events;
        return { onCall: (event: CallEvent) => events.push(event) };
      },
    },
    services,
  );
  return { ...connections, seen };
}

function addBeta(store: SettingsStore): CompanyKey {
  const r = store.changeCompanies(
    { rev: store.companies().rev, kind: "add", name: "Beta", apiUrl: URL_B, firstName: "Alpha" },
    { newKey: () => companyKeyFromUuid("00000000beta-0000"), now: 1000 },
  );
  if (!r.ok) throw new Error(r.issues.map((i) => settingsIssueText(i, "en")).join(" | "));
  const beta = r.companies.entries.find((e) => e.name === "Beta");
  if (!beta) throw new Error("no Beta");
  return beta.key;
}

describe("companyConnections: the one path from a company key to a client", () => {
  it("the first company with the user's token is ready: its client sends that token to its URL, audited", () => {
    const t = team();
    t.asAna.save({ adminId: "7" });
    t.asAna.saveToken(ANA_TOKEN);
    const c = connect(t.services(t.asAna));
    expect(c.unusable).toEqual([]);
    expect([...c.ready.keys()]).toEqual(["c0"]);
    const first = c.ready.get("c0");
    expect(first?.company).toMatchObject({ key: "c0", name: "", apiUrl: URL_A });
    first?.client.getFunds({ ResultsPerPage: 1 });
    expect(t.wire.sent).toHaveLength(1);
    expect(t.wire.sent[0]?.url.startsWith(URL_A)).toBe(true);
    expect(t.wire.sent[0]?.headers.Authorization).toBe(`Bearer ${ANA_TOKEN}`);
    expect(c.seen.c0?.map((e) => [e.phase, e.endpoint])).toEqual([["after", "getFunds"]]);
  });

  it("a token bound to another URL is refused with today's notice, and nothing is built for it", () => {
    const t = team();
    t.asAna.saveToken(ANA_TOKEN);
    t.asLuis.save({ baseUrl: URL_B });
    const c = connect(t.services(t.asAna));
    expect(c.ready.size).toBe(0);
    expect(c.unusable).toEqual([
      expect.objectContaining({
        key: "c0",
        name: "",
        reason: "changed",
        message:
          "The service URL was changed by another editor to https://beta.example.com/v1: confirm it in Settings to use your token there.",
      }),
    ]);
    expect(() => t.asAna.token(URL_B)).toThrow(c.unusable[0]?.message);
    expect(c.seen).toEqual({});
    expect(t.wire.sent).toEqual([]);
  });

  it("no token saved: unusable as noToken, the path words it (no error to throw)", () => {
    const t = team();
    const c = connect(t.services(t.asAna));
    expect(c.ready.size).toBe(0);
    expect(c.unusable).toEqual([expect.objectContaining({ key: "c0", reason: "noToken", error: null })]);
  });

  it("a second company without the user's token is listed unusable with its reason, never sent another's", () => {
    const t = team();
    t.asAna.saveToken(ANA_TOKEN);
    const beta = addBeta(t.asAna);
    const c = connect(t.services(t.asAna));
    expect([...c.ready.keys()]).toEqual(["c0"]);
    expect(c.ready.get("c0")?.company.name).toBe("Alpha");
    expect(c.unusable).toEqual([
      {
        key: beta,
        name: "Beta",
        reason: "noToken",
        message:
          "No access token is saved for you for Beta (host beta.example.com): enter your token for Beta in Settings → Connection.",
        error: null,
      },
    ]);
  });

  it("with several companies, another editor's rename of the first stops its token too", () => {
    const t = team();
    t.asAna.saveToken(ANA_TOKEN);
    addBeta(t.asLuis);
    const c = connect(t.services(t.asAna));
    expect(c.ready.size).toBe(0);
    expect(c.unusable.map((u) => [u.key, u.reason])).toEqual([
      ["c0", "renamed"],
      [expect.any(String), "noToken"],
    ]);
  });

  it("IdAdmin for writes: with several companies, each one's is the one this user saved with its token", () => {
    const t = team();
    t.asAna.save({ adminId: "7" });
    t.asAna.saveToken(ANA_TOKEN);
    const beta = addBeta(t.asAna);
    const seen = { name: "Beta", apiUrl: URL_B };
    expect(t.asAna.saveCompanyToken(beta, ANA_BETA, "", seen).ok).toBe(true);
    const services = t.services(t.asAna);
    let c = connect(services, "write");
    expect(c.ready.get("c0")).toMatchObject({ adminId: 7, adminIssue: null });
    // A token without an IdAdmin reads, and never writes.
    expect(c.unusable).toEqual([expect.objectContaining({ key: beta, reason: "noAdminId" })]);
    expect(connect(services, "read").ready.get(beta)).toMatchObject({
      adminId: null,
      adminIssue: null,
    });
    expect(t.asAna.saveCompanyToken(beta, ANA_BETA, "1007", seen).ok).toBe(true);
    c = connect(services, "write");
    expect(c.ready.get(beta)).toMatchObject({ adminId: 1007, adminIssue: null });
    c.ready.get(beta)?.client.getFunds({ ResultsPerPage: 1 });
    expect(t.wire.sent[0]?.url.startsWith(URL_B)).toBe(true);
    expect(t.wire.sent[0]?.headers.Authorization).toBe(`Bearer ${ANA_BETA}`);
    // Another editor's IdAdmin in the document's form no longer reaches Ana's writes: hers is
    // the one she saved (7), the form's saved by Luis changes nothing of it.
    t.asLuis.save({ adminId: "8" });
    c = connect(services, "write");
    expect(c.ready.get("c0")).toMatchObject({ adminId: 7, adminIssue: null });
    // Her own save of the form does not overwrite it either: IdAdmin is saved with the token.
    t.asAna.save({ adminId: "9" });
    expect(connect(services, "write").ready.get("c0")).toMatchObject({ adminId: 7, adminIssue: null });
  });
});
