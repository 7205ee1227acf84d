/**
 * Apps Script enums are objects, not numbers: `String(ScriptApp.AuthMode.FULL)` is "FULL" and
 * values are compared by identity. Each value here is one frozen object per emulator.
 */
export interface EnumValue {
  readonly name: string;
  toString(): string;
  toJSON(): string;
}

export type EnumOf<K extends string> = { readonly [P in K]: EnumValue };

export function makeEnum<K extends string>(names: readonly K[]): EnumOf<K> {
  const out = {} as Record<K, EnumValue>;
  for (const name of names) {
    out[name] = Object.freeze({
      name,
      toString: () => name,
      toJSON: () => name,
    });
  }
  return registerEnum(Object.freeze(out));
}

/** The name of an enum value given by a script, or undefined if it is not one of ours. */
export function enumName(value: unknown): string | undefined {
  if (value && typeof value === "object" && typeof (value as EnumValue).name === "string")
    return (value as EnumValue).name;
  return undefined;
}

const enumValues = new WeakSet<object>();

/** Registers the values of an enum so that the realm border passes them by identity. */
export function registerEnum<K extends string>(e: EnumOf<K>): EnumOf<K> {
  for (const v of Object.values(e) as object[]) enumValues.add(v);
  return e;
}

export function isEnumValue(value: object): boolean {
  return enumValues.has(value);
}
