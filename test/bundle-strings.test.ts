/**
 * Each bundle carries the user-facing strings its own code names (scripts/bundle-strings.ts):
 * the whole key, or the start of a group the code completes at run time; every other string of
 * the catalogue stays out, and translate() reads the carried ones back in both languages.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { bundleWithItsStrings, writeShortKeys } from "../scripts/build";
import { keysNamedIn, packStrings, shortKeyNames } from "../scripts/bundle-strings";
import { allStrings, translate } from "../src/i18n";

const root = resolve(import.meta.dirname, "..");
const KEYS = [
  "form.load",
  "form.sending",
  "outbox.state.done",
  "outbox.state.failed",
  "outbox.col.amount",
  "outbox.col.fund",
  "status.fund.1",
  "status.fund.2",
  "settings.saved",
];

describe("keysNamedIn", () => {
  it("keeps a key the code holds whole, and no other key of its group", () => {
    expect(keysNamedIn(`el.textContent = t("form.load");`, KEYS)).toEqual(["form.load"]);
  });

  it("keeps the whole group of a key built with a template", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code of a template, as a bundle holds it.
    const code = "return translate(language, `outbox.state.${state}`);";
    expect(keysNamedIn(code, KEYS)).toEqual(["outbox.state.done", "outbox.state.failed"]);
  });

  it("keeps the whole group of a key built by concatenation", () => {
    expect(keysNamedIn(`return "outbox.col." + column;`, KEYS)).toEqual([
      "outbox.col.amount",
      "outbox.col.fund",
    ]);
  });

  it("keeps the group of a dotted start joined to a value later", () => {
    const code =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the code of a template, as a bundle holds it.
      'label("status", (f) => statusLabel("status.fund", f.status));\nconst key = `${prefix}.${value}`;';
    expect(keysNamedIn(code, KEYS)).toEqual(["status.fund.1", "status.fund.2"]);
  });

  it("does not take a group for a property read, a stored setting's name or a label's key", () => {
    const code = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the code of a template, as a bundle holds it.
      "row.className = `run ${run.outcome}`;",
      'const TOKEN_KEY = "status.fund";',
      'const LABELS = { fundStatus: "status.fund", other: "outbox.state" };',
    ].join("\n");
    expect(keysNamedIn(code, [...KEYS, "run.outcome.ok"])).toEqual([]);
    // The same start passed to a call is a group the call completes.
    expect(keysNamedIn(`${code}\nstatusLabel('status.fund', 1);`, KEYS)).toEqual([
      "status.fund.1",
      "status.fund.2",
    ]);
  });

  it("does not take a whole area for a bare word or a property access", () => {
    expect(keysNamedIn(`const outbox = settings.form; send("outbox"); x.outbox.state = 1;`, KEYS)).toEqual(
      [],
    );
  });
});

describe("shortKeyNames", () => {
  it("names the keys the code holds only as whole quoted strings, most used first", () => {
    const code = 'a = t("form.load"); b = t("settings.saved"); c = t("settings.saved");';
    expect([...shortKeyNames(code, KEYS)]).toEqual([
      ["settings.saved", "a"],
      ["form.load", "b"],
    ]);
  });

  it("leaves a key that code may build at run time or read otherwise as it is", () => {
    const code = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the code of a template, as a bundle holds it.
      'x = t("outbox.state.done") + t(`outbox.state.${s}`);',
      'y = statusLabel("status.fund", 1) + t("status.fund.1");',
      'z = t("outbox.col.fund") + "key outbox.col.fund";',
    ].join("\n");
    expect([...shortKeyNames(code, KEYS)]).toEqual([]);
    // A key that starts other keys could have a value joined to it.
    expect([...shortKeyNames('x = "a.b"; t("a.b.c");', ["a.b", "a.b.c"])]).toEqual([["a.b.c", "a"]]);
  });

  it("never renames a stored name spelt like a key: a user property's name stays from version to version", () => {
    const keys = ["settings.token", "settings.form", "form.load"];
    const code = [
      'var TOKEN_KEY = "settings.token";',
      'store.getProperty("settings.form"); a = t("settings.form");',
      'b = t("settings.token"); c = t("form.load");',
    ].join("\n");
    expect([...shortKeyNames(code, keys)]).toEqual([["form.load", "a"]]);
  });
});

describe("writeShortKeys", () => {
  const short = new Map([["form.load", "b"]]);

  it("writes the short name for each string literal of the key, every later column kept", () => {
    const code = 'a(t("form.load"),{"form.load":1},`form.load`);b()';
    const out = writeShortKeys(code, short);
    expect(out).toBe('a(t("b"        ),{"b"        :1},"b"        );b()');
    expect(out.indexOf("b()")).toBe(code.indexOf("b()"));
  });

  it("fails rather than leave the key where it is not a literal of its own", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the code of a template, as a bundle holds it.
    expect(() => writeShortKeys('t("form.load");x=`form.load ${y}`', short)).toThrow(/form\.load/);
    expect(() => writeShortKeys('t("form.load");x="say form.load"', short)).toThrow(/form\.load/);
  });
});

describe("packStrings", () => {
  it("writes each key once, sorted, with its English and Spanish texts in the same order", () => {
    const table = { en: { a: "A", b: "B" }, es: { a: "Á", b: "Bé" } };
    expect(JSON.parse(packStrings(table, ["b", "a"]))).toEqual([
      ["#a", "#b"],
      ["A", "B"],
      ["Á", "Bé"],
    ]);
  });

  it("writes each key after what it shares with the one before", () => {
    const table = {
      en: { "outbox.col.fund": "F", "outbox.col.amount": "A", "outbox.state": "S", x: "X" },
      es: {},
    };
    const [keys] = JSON.parse(packStrings(table, Object.keys(table.en))) as string[][];
    // 35 + 11 shared characters is "."; 35 + 7 is "*".
    expect(keys).toEqual(["#outbox.col.amount", ".fund", "*state", "#x"]);
  });
});

describe("a bundle built with its strings", () => {
  const dir = mkdtempSync(join(tmpdir(), "bundle-strings-"));
  const strings = join(root, "src/i18n/index.ts");

  function run(
    source: string,
    packing: { shortKeys?: boolean } = {},
    globals: Record<string, unknown> = {},
  ): { code: string; result: unknown } {
    const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`);
    writeFileSync(entry, source.replace(/STRINGS/g, JSON.stringify(strings)));
    const code = bundleWithItsStrings(
      {
        entryPoints: [entry],
        bundle: true,
        format: "iife",
        globalName: "Bundle",
        target: "es2019",
        platform: "neutral",
        minify: true,
        charset: "utf8",
        logLevel: "silent",
      },
      packing,
    );
    const context = vm.createContext({ ...globals });
    vm.runInContext(code, context);
    return { code, result: (context as { Bundle: { result: unknown } }).Bundle.result };
  }

  it("translates the keys its code names in both languages, as from source", () => {
    const { result } = run(`import { translate } from STRINGS;
      const stage = "reports";
      export const result = [translate("en", "form.load"), translate("es", "form.load"),
        translate("es", \`refresh.stage.\${stage}\` as "refresh.stage.reports")];`);
    expect(result).toEqual([
      translate("en", "form.load"),
      translate("es", "form.load"),
      translate("es", "refresh.stage.reports"),
    ]);
    expect(result).toEqual(["Show fund", "Ver fondo", "Rendiciones"]);
  });

  it("leaves out every string its code does not name", () => {
    const { code } = run(`import { translate } from STRINGS;
      export const result = translate("en", "form.load");`);
    const table = allStrings();
    expect(code).toContain(JSON.stringify(table.en["form.load"]).slice(1, -1));
    expect(code).not.toContain(table.en["settings.saved"]);
    expect(code).not.toContain(table.es["settings.saved"]);
    expect(code).not.toContain(table.en["refresh.stage.transactions"]);
  });

  it("with short keys: a key named whole leaves the code, and every text reads back on first use", () => {
    const table = allStrings();
    const { code, result } = run(
      `import { translate } from STRINGS;
      export const result = [translate("es", "menu.settings"), translate("es", "form.load"), translate("en", "form.load")];`,
      { shortKeys: true },
    );
    expect(result).toEqual([table.es["menu.settings"], "Ver fondo", "Show fund"]);
    // form.load, named whole, travels under a short name: the code no longer holds the key.
    expect(code).not.toContain("form.load");
    // The texts travel as plain text (nothing to unpack with a service on each execution).
    expect(code).toContain(table.es["menu.settings"]);
    expect(code).toContain("Ver fondo");
  });
});
