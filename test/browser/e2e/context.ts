/** What every end-to-end suite receives: the running playground and one page on it. */
import type { Page } from "playwright-core";
import type { PlaygroundPage } from "../playground-page";
import type { PlaygroundStack } from "../stack";

export interface E2eContext {
  stack: PlaygroundStack;
  page: Page;
  playground: PlaygroundPage;
  /** Errors thrown in the page or its frames since the last fresh start. */
  errors: string[];
  /** Resets the spreadsheet and the sandbox, and reloads the page. */
  fresh(): Promise<void>;
}

/** Amounts as a sheet with `#,##0.00` shows them. */
export function money(amount: number): string {
  return amount.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}
