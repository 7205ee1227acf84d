/**
 * What a sidebar sends to a server function (google.script.run), read as plain data. Anyone who
 * can open a sidebar can call a server function with anything, so only what an argument holds
 * itself counts: its own data members, never one it inherits (from a `__proto__` member turned
 * into a prototype, or any other prototype) and never a getter.
 */

/** Deeper than any form nests; beyond it nothing is copied. */
const MAX_DEPTH = 20;

/** The member `key` that `value` holds itself as data, else undefined. */
export function ownMember(value: unknown, key: string): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  const described = Object.getOwnPropertyDescriptor(value, key);
  return described && "value" in described ? described.value : undefined;
}

/**
 * A copy of `value` made of own data members only, at every depth. Objects become objects
 * without a prototype, so a member that was not sent reads as undefined (never as
 * Object.prototype's); a member named "__proto__" stays a plain member. Arrays stay arrays;
 * strings, numbers, booleans and null are returned as they are; anything else is dropped.
 */
export function ownData(value: unknown): unknown {
  return copy(value, 0);
}

/** ownData of an object (not a list), or null for anything else. */
export function ownRecord(value: unknown): Record<string, unknown> | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  return copy(value, 0) as Record<string, unknown>;
}

function copy(value: unknown, depth: number): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return value;
  if (typeof value !== "object" || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) out.push(copy(ownMember(value, String(i)), depth + 1));
    return out;
  }
  const out = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const member = copy(ownMember(value, key), depth + 1);
    if (member === undefined) continue;
    Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
