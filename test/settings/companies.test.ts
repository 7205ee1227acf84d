/**
 * The list of a document's companies: read from old settings without writing, and changed only
 * by rules every change must pass (names unique and never reused, at most ten listed, the first
 * named when a second is added, URLs as the service URL's, a change on an older list refused),
 * with keys made by the server.
 */
import { describe, expect, it } from "vitest";
import {
  applyCompanyChange,
  type Companies,
  type CompanyChangeResult,
  companiesFrom,
  companiesText,
  companyKeyFromUuid,
  legacyCompanies,
  listedCompanies,
  MAX_COMPANIES,
  MAX_FORMER_NAMES,
  MAX_REMOVED_COMPANIES,
} from "../../src/settings/companies";
import type { SettingsIssue } from "../../src/settings/model";
import { settingsIssueText } from "../../src/settings/words";

const URL_A = "https://api.rindegastos.com/v1";
const URL_B = "https://beta.example.com/v1";

/** Keys as the server makes them, each new across the file. */
let made = 0;
function keyMaker() {
  return { newKey: () => companyKeyFromUuid(`${(++made).toString(16).padStart(12, "0")}-0000`), now: 1000 };
}

function ok(r: CompanyChangeResult): Companies {
  if (!r.ok)
    throw new Error(
      `refused: ${said(r.issues)
        .map((i) => i.message)
        .join(" | ")}`,
    );
  return r.companies;
}

/** Applies changes in turn, each on the list the one before left. */
function changed(start: Companies, ...changes: Record<string, unknown>[]): Companies {
  const context = keyMaker();
  let list = start;
  for (const change of changes) list = ok(applyCompanyChange(list, { ...change, rev: list.rev }, context));
  return list;
}

/** Alpha (c0) and Beta, as adding a second company leaves them. */
function alphaBeta(): Companies {
  return changed(legacyCompanies(URL_A), { kind: "add", name: "Beta", apiUrl: URL_B, firstName: "Alpha" });
}

/** Issues as a surface shows them: each with its message in `language` (the settings' words). */
function said(issues: readonly SettingsIssue[], language: "en" | "es" = "en") {
  return issues.map(({ words, ...rest }) => ({ ...rest, message: settingsIssueText({ words }, language) }));
}

function refused(list: Companies, change: Record<string, unknown>, language: "en" | "es" = "en") {
  const r = applyCompanyChange(list, { rev: list.rev, ...change }, keyMaker());
  if (r.ok) throw new Error("accepted");
  return said(r.issues, language);
}

describe("old settings", () => {
  it("absent: the first company c0, unnamed, at the service URL, one company", () => {
    expect(companiesFrom(null, URL_A)).toEqual({
      v: 1,
      rev: 0,
      several: false,
      entries: [{ key: "c0", name: "", apiUrl: URL_A, formerNames: [] }],
    });
  });

  it("unreadable or of another shape: the same (a token then waits: names no longer match)", () => {
    for (const stored of ["{", "[]", '{"v":2,"entries":[]}', '{"v":1,"entries":[{"key":"X"}]}'])
      expect(companiesFrom(stored, URL_A)).toEqual(legacyCompanies(URL_A));
  });

  it("a stored list is read as stored, the service URL aside; a key twice keeps the first", () => {
    const list = alphaBeta();
    expect(companiesFrom(companiesText(list), "https://other.example/v1")).toEqual(list);
    const doubled = { ...list, entries: [...list.entries, { ...list.entries[0], name: "Gamma" }] };
    expect(companiesFrom(JSON.stringify(doubled), URL_A).entries.map((e) => e.name)).toEqual([
      "Alpha",
      "Beta",
    ]);
  });
});

describe("keys", () => {
  it("are made by the server: c and 8 base-36 characters, never one a client sent", () => {
    expect(companyKeyFromUuid("0f8fad5b-d9cb-469f-a165-70867728950e")).toMatch(/^c[0-9a-z]{8}$/);
    const list = changed(legacyCompanies(URL_A), {
      kind: "add",
      key: "c0",
      name: "Beta",
      apiUrl: URL_B,
      firstName: "Alpha",
    });
    const beta = list.entries[1];
    expect(beta?.key).toMatch(/^c[0-9a-z]{8}$/);
    expect(list.entries[0]).toMatchObject({ key: "c0", name: "Alpha" });
  });

  it("a key maker giving a taken key is asked again", () => {
    const list = alphaBeta();
    const taken = list.entries[1]?.key as string;
    const keys = [taken, "c0", "cnew00001"];
    const r = applyCompanyChange(
      list,
      { kind: "add", rev: list.rev, name: "Gamma", apiUrl: URL_B },
      {
        newKey: () => keys.shift() as string,
        now: 0,
      },
    );
    expect(r.ok && r.key).toBe("cnew00001");
  });
});

describe("naming the first company", () => {
  it("while alone it may stay unnamed; adding a second needs its name, in the same change", () => {
    const issues = refused(legacyCompanies(URL_A), { kind: "add", name: "Beta", apiUrl: URL_B });
    expect(issues).toEqual([
      {
        field: "firstName",
        rule: "required",
        message:
          "Name of the first company is required to add a second company: name the first one (host api.rindegastos.com) in the same form.",
      },
    ]);
    const list = alphaBeta();
    expect(list.several).toBe(true);
    expect(list.rev).toBe(1);
    expect(listedCompanies(list).map((e) => [e.key, e.name])).toEqual([
      ["c0", "Alpha"],
      [list.entries[1]?.key, "Beta"],
    ]);
  });

  it("the first's name and the second's must differ", () => {
    const issues = refused(legacyCompanies(URL_A), {
      kind: "add",
      name: "alpha",
      apiUrl: URL_B,
      firstName: "Alpha",
    });
    expect(issues.map((i) => [i.field, i.rule])).toEqual([["name", "unique"]]);
  });

  it("several stays true when back to one company", () => {
    const list = alphaBeta();
    const one = changed(list, { kind: "remove", key: list.entries[1]?.key, rows: "keep" });
    expect(listedCompanies(one)).toHaveLength(1);
    expect(one.several).toBe(true);
  });
});

describe("names", () => {
  it("1 to 60 characters, trimmed", () => {
    const list = alphaBeta();
    expect(refused(list, { kind: "rename", key: "c0", name: "   " })[0]).toMatchObject({
      field: "name",
      rule: "required",
      message: "Company name is required: 1 to 60 characters.",
    });
    expect(refused(list, { kind: "rename", key: "c0", name: "x".repeat(61) })[0]?.message).toBe(
      "Company name must be at most 60 characters long (got 61).",
    );
    expect(changed(list, { kind: "rename", key: "c0", name: `  ${"x".repeat(60)}  ` }).entries[0]?.name).toBe(
      "x".repeat(60),
    );
  });

  it("no leading = + - @ (names go into cells), no control characters", () => {
    const list = alphaBeta();
    for (const char of ["=", "+", "-", "@"]) {
      const [issue] = refused(list, { kind: "rename", key: "c0", name: `${char}SUM(A1)` });
      expect(issue).toMatchObject({ field: "name", rule: "formula" });
      expect(issue?.message).toContain(`must not start with ${char}`);
    }
    expect(refused(list, { kind: "rename", key: "c0", name: "Al\npha" })[0]?.rule).toBe("control");
  });

  it("unique case-insensitively against the others' current names", () => {
    const list = alphaBeta();
    expect(refused(list, { kind: "rename", key: "c0", name: " BETA " })[0]).toEqual({
      field: "name",
      rule: "unique",
      message: 'Company name: "BETA" is already the name of another company (Beta).',
    });
    expect(refused(list, { kind: "rename", key: "c0", name: "beta" }, "es")[0]?.message).toBe(
      'Nombre de la empresa: "beta" ya es el nombre de otra empresa (Beta).',
    );
    // Its own name in other letters is its own.
    expect(changed(list, { kind: "rename", key: "c0", name: "ALPHA" }).entries[0]?.name).toBe("ALPHA");
  });

  it("no swap: a former name is never given to another company", () => {
    const list = alphaBeta();
    const beta = list.entries[1]?.key;
    const step = changed(list, { kind: "rename", key: "c0", name: "Alpha SA" });
    expect(step.entries[0]?.formerNames).toEqual(["Alpha"]);
    expect(refused(step, { kind: "rename", key: beta, name: "alpha" })[0]).toMatchObject({
      rule: "formerName",
      message: 'Company name: "alpha" was a name of Alpha SA; a name is never given to another company.',
    });
    expect(refused(step, { kind: "add", name: "Alpha", apiUrl: URL_B })[0]?.rule).toBe("formerName");
    // The company itself may take its former name back.
    const back = changed(step, { kind: "rename", key: "c0", name: "Alpha" });
    expect(back.entries[0]).toMatchObject({ name: "Alpha", formerNames: ["Alpha SA"] });
  });

  it("no reuse: a removed company's names stay its own; restoring it is the way back", () => {
    const list = alphaBeta();
    const beta = list.entries[1]?.key;
    const gone = changed(list, { kind: "remove", key: beta, rows: "keep" });
    expect(refused(gone, { kind: "add", name: "beta", apiUrl: URL_B })[0]).toMatchObject({
      field: "name",
      rule: "removedName",
      message:
        'Company name: "beta" is a name of the removed company Beta; restore it to use that name again.',
    });
    const back = changed(gone, { kind: "restore", key: beta });
    expect(listedCompanies(back).map((e) => e.name)).toEqual(["Alpha", "Beta"]);
    expect(back.entries[1]?.key).toBe(beta);
    expect(back.entries[1]?.removed).toBeUndefined();
  });

  it("names that look alike are one name: Greek or Cyrillic letters, invisible characters, fullwidth forms", () => {
    const list = alphaBeta();
    const beta = list.entries[1]?.key;
    for (const name of ["\u0391lpha", "Al\u200bpha", "\uff21\uff4c\uff50\uff48\uff41", "ALPHA", "A1pha"]) {
      expect(refused(list, { kind: "rename", key: beta, name })[0]).toMatchObject({ rule: "unique" });
      expect(refused(list, { kind: "add", name, apiUrl: URL_B })[0]).toMatchObject({ rule: "unique" });
    }
    // A name of its own, in whatever letters, is accepted.
    expect(changed(list, { kind: "rename", key: beta, name: "\u0412\u0435t\u0430 2" }).entries[1]?.name).toBe(
      "\u0412\u0435t\u0430 2",
    );
  });

  it("a name holding a direction control is refused, in either language; one only invisible too", () => {
    const list = alphaBeta();
    expect(refused(list, { kind: "add", name: "Gam\u202ema", apiUrl: URL_B })[0]).toEqual({
      field: "name",
      rule: "direction",
      message:
        "Company name must not hold direction controls (characters that show the letters of a name in another order than they are typed).",
    });
    expect(refused(list, { kind: "add", name: "\u2067Gamma", apiUrl: URL_B }, "es")[0]?.message).toMatch(
      /^Nombre de la empresa no puede llevar controles de dirección/,
    );
    expect(refused(list, { kind: "add", name: "\u200b\u200d", apiUrl: URL_B })[0]?.rule).toBe("invisible");
  });

  it("a former name is never given to another company, however many renames later", () => {
    let list = alphaBeta();
    const beta = list.entries[1]?.key;
    for (let i = 1; i <= 8; i++) list = changed(list, { kind: "rename", key: "c0", name: `Alpha ${i}` });
    expect(list.entries[0]?.formerNames).not.toContain("Alpha");
    expect(refused(list, { kind: "rename", key: beta, name: "alpha" })[0]).toMatchObject({
      rule: "usedName",
      message:
        'Company name: "alpha" looks like a name another company had (Alpha 8); a name is never given to another company.',
    });
    expect(refused(list, { kind: "add", name: "\u0391LPHA 1", apiUrl: URL_B })[0]?.rule).toBe("usedName");
    // The company itself may take any of its names back.
    expect(changed(list, { kind: "rename", key: "c0", name: "Alpha" }).entries[0]?.name).toBe("Alpha");
    // The list stays readable as stored.
    expect(companiesFrom(companiesText(list), URL_A)).toEqual(list);
  });

  it("a removed company's name stays taken after it is forgotten, however many removals later", () => {
    let list = alphaBeta();
    const beta = list.entries[1]?.key as string;
    list = changed(list, { kind: "remove", key: beta, rows: "keep" });
    for (let i = 0; i < MAX_REMOVED_COMPANIES + 1; i++) {
      list = changed(list, { kind: "add", name: `Temp ${i}`, apiUrl: URL_B });
      const key = list.entries.at(-1)?.key as string;
      list = changed(list, { kind: "remove", key, rows: "remove" });
    }
    expect(list.entries.some((e) => e.key === beta)).toBe(false);
    expect(refused(list, { kind: "add", name: "B\u0435ta", apiUrl: URL_B })[0]).toMatchObject({
      rule: "usedName",
      message:
        'Company name: "B\u0435ta" looks like a name another company had (a company removed earlier); a name is never given to another company.',
    });
  });

  it("keeps the last five former names, the latest last", () => {
    let list = alphaBeta();
    for (let i = 1; i <= 7; i++) list = changed(list, { kind: "rename", key: "c0", name: `Alpha ${i}` });
    expect(list.entries[0]?.formerNames).toHaveLength(MAX_FORMER_NAMES);
    expect(list.entries[0]?.formerNames).toEqual(["Alpha 2", "Alpha 3", "Alpha 4", "Alpha 5", "Alpha 6"]);
  });
});

describe("URLs", () => {
  it("follow the service URL's rules, the message naming the field", () => {
    const list = alphaBeta();
    expect(refused(list, { kind: "repoint", key: "c0", apiUrl: "http://api.example.com/v1" })[0]).toEqual({
      field: "apiUrl",
      rule: "https",
      message:
        'Service URL must start with https:// so that the token travels encrypted (got "http://api.example.com/v1").',
    });
    expect(
      refused(list, { kind: "repoint", key: "c0", apiUrl: "https://api.rindegastos.com@evil.example/v1" })[0],
    ).toMatchObject({
      rule: "userInfo",
    });
    expect(
      refused(list, { kind: "repoint", key: "c0", apiUrl: `https://x.example/${"a".repeat(500)}` })[0]?.rule,
    ).toBe("maxLength");
    expect(refused(list, { kind: "add", name: "Gamma", apiUrl: "" })[0]).toMatchObject({
      field: "apiUrl",
      rule: "required",
    });
    expect(
      changed(list, { kind: "repoint", key: "c0", apiUrl: "https://api.example.com/v2/" }).entries[0]?.apiUrl,
    ).toBe("https://api.example.com/v2");
  });
});

describe("how many", () => {
  it("at most ten listed: an eleventh, or a restore past ten, is refused", () => {
    let list = alphaBeta();
    for (let i = 3; i <= MAX_COMPANIES; i++)
      list = changed(list, { kind: "add", name: `Company ${i}`, apiUrl: URL_B });
    expect(listedCompanies(list)).toHaveLength(MAX_COMPANIES);
    expect(refused(list, { kind: "add", name: "Eleven", apiUrl: URL_B })[0]).toMatchObject({ rule: "max" });
    const last = list.entries[MAX_COMPANIES - 1]?.key;
    const nine = changed(
      list,
      { kind: "remove", key: last, rows: "keep" },
      { kind: "add", name: "Ten", apiUrl: URL_B },
    );
    expect(refused(nine, { kind: "restore", key: last })[0]).toMatchObject({ rule: "max" });
  });

  it("removed ones are kept up to twenty; past that the one removed first is forgotten", () => {
    let list = alphaBeta();
    const removedKeys: string[] = [];
    for (let i = 0; i < MAX_REMOVED_COMPANIES + 2; i++) {
      list = changed(list, { kind: "add", name: `Temp ${i}`, apiUrl: URL_B });
      const key = list.entries.at(-1)?.key as string;
      list = ok(
        applyCompanyChange(
          list,
          { kind: "remove", key, rev: list.rev, rows: "remove" },
          {
            newKey: () => "cunused00",
            now: 5000 + i,
          },
        ),
      );
      removedKeys.push(key);
    }
    const tombstones = list.entries.filter((e) => e.removed);
    expect(tombstones).toHaveLength(MAX_REMOVED_COMPANIES);
    expect(tombstones.map((e) => e.key)).toEqual(removedKeys.slice(2));
    expect(tombstones[0]?.removed).toEqual({ at: 5002, rows: "remove" });
  });

  it("the only company listed cannot be removed", () => {
    expect(refused(legacyCompanies(URL_A), { kind: "remove", key: "c0", rows: "keep" })[0]).toMatchObject({
      rule: "last",
    });
  });
});

describe("the other changes", () => {
  it("move: the order shown, counted from 1; removed ones stay after", () => {
    let list = changed(alphaBeta(), { kind: "add", name: "Gamma", apiUrl: URL_B });
    const [, beta, gamma] = list.entries.map((e) => e.key);
    list = changed(list, { kind: "move", key: gamma, position: 1 });
    expect(listedCompanies(list).map((e) => e.name)).toEqual(["Gamma", "Alpha", "Beta"]);
    expect(refused(list, { kind: "move", key: beta, position: 4 })[0]).toMatchObject({
      field: "position",
      message: "Position must be a whole number from 1 to 3 (got 4).",
    });
  });

  it("a removed company is changed only by restoring it; restoring a listed one is refused", () => {
    const list = alphaBeta();
    const beta = list.entries[1]?.key;
    const gone = changed(list, { kind: "remove", key: beta, rows: "keep" });
    expect(refused(gone, { kind: "rename", key: beta, name: "Bravo" })[0]).toMatchObject({ rule: "removed" });
    expect(refused(list, { kind: "restore", key: beta })[0]).toMatchObject({ rule: "notRemoved" });
    expect(refused(list, { kind: "remove", key: beta, rows: "hide" })[0]).toMatchObject({ field: "rows" });
  });

  it("unknown keys and changes that are not changes are refused, naming what was wrong", () => {
    const list = alphaBeta();
    expect(refused(list, { kind: "rename", key: "cnothere1", name: "X" })[0]).toMatchObject({
      rule: "unknown",
    });
    for (const change of [null, [], "add", { kind: "drop", rev: list.rev }, { kind: "add" }])
      expect(applyCompanyChange(list, change, keyMaker())).toMatchObject({
        ok: false,
        issues: [{ field: "change", rule: "request" }],
      });
  });
});

describe("rev", () => {
  it("every change raises it; a change made on an older list is refused whole, in either language", () => {
    const list = alphaBeta();
    const renamed = changed(list, { kind: "rename", key: "c0", name: "Alpha SA" });
    expect(renamed.rev).toBe(list.rev + 1);
    const stale = applyCompanyChange(
      renamed,
      { kind: "rename", key: "c0", name: "Other", rev: list.rev },
      keyMaker(),
    );
    expect({ ok: stale.ok, issues: !stale.ok && said(stale.issues) }).toEqual({
      ok: false,
      issues: [
        {
          field: "rev",
          rule: "stale",
          message:
            "The list of companies changed since it was shown (another editor saved it): reload it and try again. Nothing was saved.",
        },
      ],
    });
    const es = applyCompanyChange(
      renamed,
      { kind: "rename", key: "c0", name: "Otra", rev: list.rev },
      keyMaker(),
    );
    expect(!es.ok && said(es.issues, "es")[0]?.message).toMatch(/^La lista de empresas cambió/);
  });
});
