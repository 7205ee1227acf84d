/**
 * When two company names are the same name. Names that look alike are one name: compared after
 * Unicode NFKC (fullwidth and other compatibility forms), the removal of invisible characters
 * (default-ignorable code points: zero-width spaces and joiners, soft hyphens, variation
 * selectors), case folding, and the confusable skeleton of Unicode TS #39 for Latin, Greek and
 * Cyrillic (src/company/confusables.ts): "Alpha", "ALPHA", "Αlpha" (Greek capital alpha),
 * "Alpha" with a zero-width space and "Ａｌｐｈａ" are one name. A name holding a direction
 * control (which can show its letters in another order than they are stored) is refused
 * outright (`hasDirectionControl`). Pure.
 */

import { CONFUSABLE_LINES } from "./confusables";

/** Direction controls: ALM, LRM, RLM, the embeddings and overrides, the isolates. */
const DIRECTION_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

let prototypes: Map<string, string> | null = null;

function prototypeOf(char: string): string {
  if (!prototypes) {
    prototypes = new Map();
    for (const line of CONFUSABLE_LINES) prototypes.set(line.charAt(0), line.slice(1));
  }
  return prototypes.get(char) ?? char;
}

/** Whether `name` holds a character that changes the direction text is shown in. */
export function hasDirectionControl(name: string): boolean {
  return DIRECTION_CONTROL.test(name);
}

/** TS #39's skeleton over the table's scripts: NFD, each character to its prototype, NFD. */
export function skeleton(text: string): string {
  let out = "";
  for (const char of text.normalize("NFD")) out += prototypeOf(char);
  return out.normalize("NFD");
}

function folded(text: string): string {
  // Upper then lower case folds what lower case alone keeps apart ("ß" and "ss").
  return text.toUpperCase().toLowerCase().normalize("NFKC");
}

/**
 * What two names are compared by: equal keys are the same name. NFKC, invisible characters
 * removed, spaces collapsed, then folded and reduced to the skeleton (twice, so that "I" and "l"
 * meet whichever case they were typed in).
 */
export function nameKey(name: string): string {
  const plain = name.normalize("NFKC").replace(INVISIBLE, "").replace(/\s+/gu, " ").trim();
  return folded(skeleton(folded(skeleton(plain))));
}

/** Whether `a` and `b` are the same name (`nameKey`). */
export function sameName(a: string, b: string): boolean {
  return nameKey(a) === nameKey(b);
}

/**
 * A short fixed-size mark of a name (FNV-1a, 32 bits, over its key's UTF-16 units, as 8 hex
 * digits): what the list keeps of the names it must never give to another company, so that
 * however many there are, the list stays within a document property's size.
 */
export function nameDigest(name: string): string {
  const key = nameKey(name);
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}
