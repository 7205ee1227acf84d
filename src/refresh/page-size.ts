/**
 * The largest page the service accepts, found once per service URL and remembered.
 *
 * The service documents no maximum for ResultsPerPage; clients use 100. Larger pages mean
 * fewer calls (a refresh that changes nothing at 20,000 reports: 25 calls at 1,000 per page,
 * 214 at 100). So a refresh asks for `ask` (1,000) and keeps what the first pages show:
 * - refused (an HTTP 4xx or an error inside a 200): the fallback (the setting's 100) is kept;
 * - cut short (fewer records than asked while the list holds more): the size it gave is kept;
 * - a full page of `ask` records: `ask` is kept;
 * - every list shorter than one page: nothing is learnt yet; the next refresh asks again.
 * What is kept lives in the user's own properties (`refresh.pageSizes`: service URL → size):
 * the document's are any editor's, and a size of 1 there would multiply the calls of every
 * other user's refreshes.
 */
import { HttpError, ServiceError } from "../api/errors";
import type { TextStore } from "./stored-text";

export const PAGE_SIZE_KEY = "refresh.pageSizes";

export interface PageSizeProbe {
  /** What to ask for while the service's answer is unknown. */
  ask: number;
  /** The service URL (with its version) the size is remembered for. */
  serviceUrl: string;
}

function load(store: TextStore): Record<string, number> {
  try {
    const value = JSON.parse(store.getProperty(PAGE_SIZE_KEY) ?? "{}");
    return value && typeof value === "object" ? value : {};
  } catch (_err) {
    return {};
  }
}

/** The size remembered for the service URL, or null. */
export function rememberedPageSize(store: TextStore, serviceUrl: string): number | null {
  const size = load(store)[serviceUrl];
  return Number.isInteger(size) && (size as number) > 0 ? (size as number) : null;
}

/** Keeps the size for the service URL (one entry per URL the settings ever pointed at). */
export function rememberPageSize(store: TextStore, serviceUrl: string, size: number): void {
  const all = load(store);
  all[serviceUrl] = size;
  store.setProperty(PAGE_SIZE_KEY, JSON.stringify(all));
}

/**
 * Whether a failed first page says the page size was refused: a 400, 413 or 422, or an error
 * inside a 200 (anything else fails the refresh as it would have anyway).
 */
export function refusedPageSize(err: unknown): boolean {
  return err instanceof ServiceError || (err instanceof HttpError && [400, 413, 422].includes(err.status));
}

/**
 * What the first pages, asked at `asked` records, tell about the largest page: a size to keep,
 * or null when every list fitted in one page and nothing was learnt.
 */
export function learntPageSize(
  asked: number,
  pages: readonly { items: readonly unknown[]; total?: number }[],
): { size: number; cut: boolean } | null {
  let full = false;
  for (const p of pages) {
    const expected = p.total === undefined ? asked : Math.min(asked, p.total);
    if (p.items.length > 0 && p.items.length < expected) return { size: p.items.length, cut: true };
    if (p.items.length === asked) full = true;
  }
  return full ? { size: asked, cut: false } : null;
}
