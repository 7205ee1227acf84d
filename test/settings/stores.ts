/** In-memory property stores, shaped like PropertiesService's. */
import { type PropertyStore, settingsWords, TokenNotBoundError } from "../../src/settings";

export function memoryStore(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const store: PropertyStore = {
    getProperty: (key) => data.get(key) ?? null,
    setProperty: (key, value) => {
      data.set(key, value);
      return store;
    },
    deleteProperty: (key) => {
      data.delete(key);
      return store;
    },
    getKeys: () => [...data.keys()],
  };
  return { store, data };
}

/** What `run` throws, a token's refusal said in `language` as the surface says it (settings/words.ts). */
export function saidIn(language: "en" | "es", run: () => unknown): unknown {
  try {
    return run();
  } catch (err) {
    throw err instanceof TokenNotBoundError ? new Error(settingsWords(err.words, language)) : err;
  }
}
