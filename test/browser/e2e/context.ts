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

/** Amounts as the sheets show them: two decimals, none in pesos or yen when there are no cents. */
export function money(amount: number, currency: string): string {
  const digits = ["CLP", "JPY"].includes(currency) && Number.isInteger(amount) ? 0 : 2;
  return amount.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: 2 });
}
