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
import { bundleWithItsStrings } from "../scripts/build";
import { carriedStrings, keysNamedIn } from "../scripts/bundle-strings";
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

describe("carriedStrings", () => {
  it("carries the given keys' English and Spanish texts under their keys, and no other key", () => {
    const table = { en: { a: "A", b: "B", c: "C" }, es: { a: "Á", b: "Bé", c: "Cé" } };
    expect(carriedStrings(table, ["b", "a"])).toEqual({ en: { a: "A", b: "B" }, es: { a: "Á", b: "Bé" } });
  });
});

describe("a bundle built with its strings", () => {
  const dir = mkdtempSync(join(tmpdir(), "bundle-strings-"));
  const strings = join(root, "src/i18n/index.ts");

  function run(source: string): { code: string; result: unknown } {
    const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`);
    writeFileSync(entry, source.replace(/STRINGS/g, JSON.stringify(strings)));
    const code = bundleWithItsStrings({
      entryPoints: [entry],
      bundle: true,
      format: "iife",
      globalName: "Bundle",
      target: "es2019",
      platform: "neutral",
      minify: true,
      charset: "utf8",
      logLevel: "silent",
    });
    const context = vm.createContext({});
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

  it("carries its texts as plain text under their keys, each read back on first use", () => {
    const table = allStrings();
    const { code, result } = run(
      `import { translate } from STRINGS;
      export const result = [translate("es", "menu.settings"), translate("es", "form.load"), translate("en", "form.load")];`,
    );
    expect(result).toEqual([table.es["menu.settings"], "Ver fondo", "Show fund"]);
    expect(code).toContain("form.load");
    expect(code).toContain(table.es["menu.settings"]);
    expect(code).toContain("Ver fondo");
  });
});
