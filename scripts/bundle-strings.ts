/**
 * Which user-facing strings a bundle carries: those its own code names. A sidebar page needs
 * a few dozen of the catalogue's strings and the server most of them, so each bundle is built
 * once without any string (to read its code), then with the strings that code names
 * (carriedStrings; src/i18n/index.ts reads them).
 */
import type { StringTable } from "../src/i18n";

/** Dotted words as they appear in code: `outbox.col.id`, `status.fund`, `outbox.state.` (before `${`). */
const DOTTED = /[A-Za-z_]\w*(?:\.\w+)*\.?/g;

/** Dotted text passed to a call as a string: `statusLabel("status.fund", f.status)`. */
const PASSED = /[(,]\s*(["'`])([A-Za-z_]\w*(?:\.\w+)+)\1\s*[,)]/g;

/**
 * The keys among `keys` that `code` names: the whole key (`"form.load"`), or the start of its
 * group the way code builds keys (`` `outbox.state.${state}` ``, `"outbox.col." + column`), or a
 * dotted start passed to a call that joins a value to it later (`"status.fund"` →
 * `${prefix}.${value}`). A dotted start that is only a property read (`run.outcome`), a stored
 * setting's name or a label's key is no group. Naming more than needed only costs bytes; naming
 * too little would show a key instead of its text, so the rules lean to more.
 */
export function keysNamedIn(code: string, keys: readonly string[]): string[] {
  const words = new Set(code.match(DOTTED) ?? []);
  const passed = passedStarts(code);
  return keys.filter((key) => words.has(key) || namedAsGroup(key, words, passed));
}

function passedStarts(code: string): Set<string> {
  return new Set(Array.from(code.matchAll(PASSED), (m) => m[2] as string));
}

/** Whether code may build `key` at run time: a start of it is named the way code builds keys. */
function namedAsGroup(key: string, words: ReadonlySet<string>, passed: ReadonlySet<string>): boolean {
  const parts = key.split(".");
  for (let i = 1; i < parts.length; i++) {
    const start = parts.slice(0, i).join(".");
    if (words.has(`${start}.`)) return true;
    if (i > 1 && passed.has(start)) return true;
  }
  return false;
}

/** The texts of `keys` in `table`, by language then key, as the bundle carries them. */
export function carriedStrings(table: StringTable, keys: readonly string[]): StringTable {
  const carried: StringTable = { en: {}, es: {} };
  for (const key of [...keys].sort()) {
    carried.en[key] = table.en[key] as string;
    carried.es[key] = (table.es[key] ?? table.en[key]) as string;
  }
  return carried;
}
