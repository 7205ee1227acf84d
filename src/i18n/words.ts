/**
 * A message as data: the catalogue key that says it and the values it names. The core returns
 * Words; a surface's words module says them in the user's language (`say`). A value may itself
 * be words to say (`{ say: key }`, a field's label) or a company as a message names it.
 */
import { type Language, type StringKey, translate } from "./index";

/** A company as a message names it: its name, or its host while it has none. */
export interface CompanyNamed {
  company: string;
  host: string;
}

/** Words to say inside other words: a field's label, a reason. */
export interface Said {
  say: StringKey;
  params?: Record<string, string | number>;
}

export type WordValue = string | number | Said | CompanyNamed;

export interface Words {
  key: StringKey;
  params?: Record<string, WordValue>;
}

/** A company's name for a message, from its name and service URL's host. */
export function companyNamed(name: string, host: string): CompanyNamed {
  return { company: name, host };
}

/** The text of one value in `language`. */
export function sayValue(language: Language, value: WordValue): string | number {
  if (typeof value !== "object") return value;
  if ("say" in value) return translate(language, value.say, value.params);
  return value.company || translate(language, "company.unnamed", { host: value.host });
}

/** `words` in `language`. */
export function say(language: Language, words: Words): string {
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(words.params ?? {})) params[name] = sayValue(language, value);
  return translate(language, words.key, params);
}
