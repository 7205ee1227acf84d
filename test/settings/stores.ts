/** In-memory property stores, shaped like PropertiesService's. */
import type { PropertyStore } from "../../src/settings";

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
