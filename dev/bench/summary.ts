/**
 * The Summary sheet's share of a refresh: how long its last update took on the script's clock
 * (which counts the emulated cost of every cell read and written), as the add-on keeps it.
 */
import { loadText } from "../../src/refresh/stored-text";
import { parseState, SUMMARY_STATE_KEY } from "../../src/summary/layout";
import type { Emulator } from "../emulator/index";

export function summaryMs(emulator: Emulator): number | null {
  const values = emulator.documentPropertiesData.values;
  const store = {
    getProperty: (key: string) => values.get(key) ?? null,
    setProperty: () => undefined,
    deleteProperty: () => undefined,
  };
  return parseState(loadText(store, SUMMARY_STATE_KEY)).ms ?? null;
}

/** One line for the bench: the Summary's time against the refresh's, both on the script's clock. */
export function summaryLine(summary: number | null, refreshMs: number): string {
  if (summary === null) return "Summary: not updated (FAILED).";
  const share = refreshMs > 0 ? ((summary / refreshMs) * 100).toFixed(1) : "?";
  return `Summary sheet (read back, computed, written with its charts): ${Math.round(summary).toLocaleString("en")} ms of the refresh's ${(refreshMs / 1000).toFixed(1)} s on the script's clock (${share}%).`;
}
