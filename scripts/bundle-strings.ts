/**
 * Which user-facing strings a bundle carries: those its own code names. A sidebar page needs
 * a few dozen of the catalogue's strings and the server most of them, so each bundle is built
 * once without any string (to read its code), then with the strings that code names, each key
 * written once (src/i18n/index.ts reads them back). In the server bundle, a key its code names
 * only whole travels under a short name, in the code and in the catalogue (shortKeyNames).
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

/**
 * JSON text of [keys, English texts, Spanish texts] for `keys` of `table`, sorted. Each key is
 * written after what it shares with the one before: one character (code 35 + the length
 * shared), then the rest (`outbox.col.amount`, `outbox.col.fund` → `#outbox.col.amount`,
 * `.fund`, with `.` standing for 11 shared characters); src/i18n/index.ts reads it back.
 */
export function packStrings(table: StringTable, keys: readonly string[]): string {
  const sorted = [...keys].sort();
  let previous = "";
  const written = sorted.map((key) => {
    let shared = 0;
    while (shared < key.length && key[shared] === previous[shared]) shared++;
    previous = key;
    return String.fromCharCode(35 + shared) + key.slice(shared);
  });
  return JSON.stringify([
    written,
    sorted.map((k) => table.en[k]),
    sorted.map((k) => table.es[k] ?? table.en[k]),
  ]);
}

/**
 * The characters of short names: one of them, then two once they run out. A key always holds a
 * dot, so no short name is a key.
 */
const ALIAS_DIGITS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function aliasAt(index: number): string {
  const n = ALIAS_DIGITS.length;
  if (index < n) return ALIAS_DIGITS[index] as string;
  const rest = index - n;
  return (ALIAS_DIGITS[Math.floor(rest / n) % n] as string) + (ALIAS_DIGITS[rest % n] as string);
}

/**
 * A short name for each key among `keys` that `code` names only whole, as a quoted string
 * (`"outbox.run.busy"`), most used first: the bundle's code and its catalogue can both carry the
 * short name instead (about 6 kB of addon.js). A key is left as it is when anything could build
 * it at run time or read it otherwise: a start of it named as a group (`` `status.fund.${s}` ``,
 * a dotted start passed to a call), the key itself the start of other keys (code could join a
 * value to it), or any appearance that is not a whole quoted string. The names change from
 * build to build, so nothing may store a key to read it back in a later version.
 */
/**
 * Names of stored things that the code spells like a key (user property `settings.token`): held
 * in a constant named `…KEY` or `…PREFIX`, or passed to `getProperty`/`setProperty`/
 * `deleteProperty`. Such a text must stay as it is from version to version, whatever the
 * catalogue holds.
 */
function storedNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const m of code.matchAll(/\w*(?:KEY|PREFIX)\s*=\s*(["'`])([^"'`]+)\1/g)) names.add(m[2] as string);
  for (const m of code.matchAll(/(?:get|set|delete)Property\(\s*(["'`])([^"'`]+)\1/g))
    names.add(m[2] as string);
  return names;
}

export function shortKeyNames(code: string, keys: readonly string[]): Map<string, string> {
  const named = new Set(keysNamedIn(code, keys));
  const words = new Map<string, number>();
  for (const word of code.match(DOTTED) ?? []) words.set(word, (words.get(word) ?? 0) + 1);
  const wordSet = new Set(words.keys());
  const passed = passedStarts(code);
  const whole = new Map<string, number>();
  for (const m of code.matchAll(/(["'`])([A-Za-z_]\w*(?:\.\w+)+)\1/g)) {
    const key = m[2] as string;
    whole.set(key, (whole.get(key) ?? 0) + 1);
  }
  const all = [...keys];
  const stored = storedNames(code);
  const candidates = keys.filter((key) => {
    if (!named.has(key) || stored.has(key)) return false;
    const count = whole.get(key) ?? 0;
    if (count === 0 || words.get(key) !== count) return false;
    if (all.some((other) => other.startsWith(`${key}.`))) return false;
    // Named by a group too: the same text can come from a template or a join.
    return !namedAsGroup(key, wordSet, passed);
  });
  candidates.sort((a, b) => (whole.get(b) ?? 0) - (whole.get(a) ?? 0) || (a < b ? -1 : 1));
  const existing = new Set(keys);
  const names = new Map<string, string>();
  let next = 0;
  for (const key of candidates) {
    let alias = aliasAt(next++);
    while (existing.has(alias)) alias = aliasAt(next++);
    names.set(key, alias);
  }
  return names;
}
