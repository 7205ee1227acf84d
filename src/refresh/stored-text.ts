/**
 * Text longer than one property value (9 KB) kept in document properties: cut into values of
 * at most CHUNK whole characters under `<key>.0`, `<key>.1`…, with the count under `<key>`.
 * The count is set to 0 first and to the new count last, so an execution killed mid-save
 * leaves "nothing stored" rather than a mix of two versions.
 */

import { tolerate } from "../api/errors";

/** The part of a property store this needs (PropertiesService's Properties fits). */
export interface TextStore {
  getProperty(key: string): string | null;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
}

/** Characters per value: at most 3 UTF-8 bytes each would still fit 9 KB; ours are ASCII. */
export const CHUNK = 3_000;

export function saveText(store: TextStore, key: string, text: string): void {
  const previous = Number(store.getProperty(key) ?? "0") || 0;
  const chunks: string[] = [];
  for (let i = 0, end = 0; i < text.length; i = end) {
    end = i + CHUNK;
    // Never between the two halves of a character beyond U+FFFF (a name's emoji).
    if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end--;
    chunks.push(text.slice(i, end));
  }
  store.setProperty(key, "0");
  chunks.forEach((c, i) => {
    store.setProperty(`${key}.${i}`, c);
  });
  for (let i = chunks.length; i < previous; i++) store.deleteProperty(`${key}.${i}`);
  store.setProperty(key, String(chunks.length));
}

/** The text saved under `key`, or null when there is none (or it is incomplete). */
export function loadText(store: TextStore, key: string): string | null {
  const count = Number(store.getProperty(key) ?? "0");
  if (!Number.isInteger(count) || count <= 0) return null;
  let text = "";
  for (let i = 0; i < count; i++) {
    const chunk = store.getProperty(`${key}.${i}`);
    if (chunk === null) return null;
    text += chunk;
  }
  return text;
}

export function deleteText(store: TextStore, key: string): void {
  const count = Number(store.getProperty(key) ?? "0") || 0;
  store.deleteProperty(key);
  for (let i = 0; i < count; i++) store.deleteProperty(`${key}.${i}`);
}

const LAYOUT_KEY = "sheets.layout.";

/**
 * The column keys a data sheet of `kind` was last written with, saved by saveLayout or as the
 * single value earlier versions wrote; null when none (or unreadable).
 */
export function loadLayout(store: TextStore, kind: string): string[] | null {
  const key = LAYOUT_KEY + kind;
  const keys = tolerate(
    "unreadable",
    () => JSON.parse(loadText(store, key) ?? store.getProperty(key) ?? "") as unknown,
    null,
  );
  return Array.isArray(keys) && keys.every((k) => typeof k === "string") ? keys : null;
}

/** Saves a sheet's column keys when they changed, cut into values: extra-field names may take more than 9 KB. */
export function saveLayout(store: TextStore, kind: string, keys: readonly string[]): void {
  const text = JSON.stringify(keys);
  if (loadText(store, LAYOUT_KEY + kind) !== text) saveText(store, LAYOUT_KEY + kind, text);
}
