/**
 * The language a sidebar page speaks: English until the server's view says otherwise. Each
 * sidebar is its own page with its own bundle, so one language per page is all there is.
 */
import { type Language, type StringKey, translate } from "../../i18n";

let language: Language = "en";

/** The page's language, as t() speaks it. */
export const pageLanguage = (): Language => language;

/** Makes t() speak `next`, without touching the document. */
export function speak(next: Language): void {
  language = next;
}

/** Makes t() speak `next` and says so on the document, for screen readers and spell checks. */
export function setLanguage(next: Language): void {
  language = next;
  document.documentElement.lang = next;
}

/** The string `key` in the page's language. */
export const t = (key: StringKey, params: Record<string, string | number> = {}): string =>
  translate(language, key, params);
