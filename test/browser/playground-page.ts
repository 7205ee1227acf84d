/**
 * Driving the playground page as a person would, for the end-to-end suites: the add-on menu,
 * the grid, the sidebar frame, alerts. Each action waits until the run it started has finished
 * and the grid has been read again.
 */
import type { FrameLocator, Locator, Page } from "playwright-core";

export class PlaygroundPage {
  constructor(readonly page: Page) {}

  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.locator("body[data-ready='1']").waitFor();
  }

  /** How many runs have finished (and refreshed the grid) so far. */
  async runsFinished(): Promise<number> {
    return Number((await this.page.locator("body").getAttribute("data-refreshed")) ?? "0");
  }

  /** Waits until more than `count` runs have finished and none is in flight. */
  async waitForRunsAfter(count: number, timeout = 60_000): Promise<void> {
    await this.page.waitForFunction(
      (before) =>
        Number(document.body.dataset.refreshed ?? "0") > before &&
        (document.body.dataset.running ?? "0") === "0",
      count,
      { timeout },
    );
  }

  /** Opens Extensions → add-on → the item that calls `functionName`, without waiting for it. */
  async clickMenu(functionName: string): Promise<void> {
    await this.page.locator('[data-testid="menu-extensions"]').click();
    await this.page.locator('[data-testid="menu-addon"]').click();
    await this.page.locator(`[data-testid="menu-item-${functionName}"]`).click();
  }

  /** Runs a menu item and waits for it to finish. */
  async menu(functionName: string, timeout?: number): Promise<void> {
    const before = await this.runsFinished();
    await this.clickMenu(functionName);
    await this.waitForRunsAfter(before, timeout);
  }

  /** Runs `action` (a click in a sidebar…) and waits for the server run it causes. */
  async afterRun(action: () => Promise<void>, timeout?: number): Promise<void> {
    const before = await this.runsFinished();
    await action();
    await this.waitForRunsAfter(before, timeout);
  }

  status(): Promise<string | null> {
    return this.page.locator('[data-testid="run-status"]').textContent();
  }

  /** Opens a sheet's tab. */
  async sheet(name: string): Promise<void> {
    await this.page.locator(`[data-testid="sheet-tab"][data-sheet="${name}"]`).click();
  }

  activeSheet(): Promise<string | null> {
    return this.page.locator('[data-testid="sheet-tab"][aria-selected="true"]').textContent();
  }

  cell(name: string): Locator {
    return this.page.locator(`[data-testid="cell-${name}"]`);
  }

  /** The displayed text of a row (1-based), cells in order, trailing empty cells dropped. */
  async row(row: number): Promise<string[]> {
    const texts = await this.page
      .locator(`[data-testid="row-header-${row}"]`)
      .locator("xpath=..")
      .locator("td")
      .allTextContents();
    while (texts.length > 0 && texts[texts.length - 1] === "") texts.pop();
    return texts;
  }

  /** The header row of the active sheet. */
  header(): Promise<string[]> {
    return this.row(1);
  }

  /** 1-based row whose cell in the column named `column` (a header) shows `text`. */
  async findRow(column: string, text: string): Promise<number> {
    const header = await this.header();
    const index = header.indexOf(column);
    if (index < 0) throw new Error(`No column "${column}" in ${JSON.stringify(header)}`);
    const texts = await this.page.locator(`td[data-column="${index}"]`).allTextContents();
    const row = texts.indexOf(text);
    if (row < 0) throw new Error(`No row shows "${text}" in column "${column}"`);
    return row + 1;
  }

  /** Selects whole rows from `first` to `last` (1-based) with click and shift-click on row numbers. */
  async selectRows(first: number, last = first): Promise<void> {
    await this.page.locator(`[data-testid="row-header-${first}"]`).click();
    if (last !== first)
      await this.page.locator(`[data-testid="row-header-${last}"]`).click({ modifiers: ["Shift"] });
  }

  /** Types into a cell like a user (click, type, Enter) and waits until it is written and read back. */
  async typeInto(cellName: string, text: string): Promise<void> {
    await this.cell(cellName).click();
    await this.page.keyboard.type(text);
    await this.page.keyboard.press("Enter");
    await this.page.waitForFunction(() => (document.body.dataset.writing ?? "0") === "0");
  }

  /** Types a block of rows starting at `topLeft`'s row, one cell at a time. */
  async typeRows(firstRow: number, rows: string[][]): Promise<void> {
    for (const [r, cells] of rows.entries()) {
      for (const [c, text] of cells.entries()) {
        if (text !== "") await this.typeInto(`${String.fromCharCode(65 + c)}${firstRow + r}`, text);
      }
    }
  }

  sidebar(): FrameLocator {
    return this.page.frameLocator('[data-testid="sidebar-frame"]');
  }

  async sidebarTitle(): Promise<string | null> {
    await this.page.locator('[data-testid="sidebar"]').waitFor();
    return this.page.locator('[data-testid="sidebar-title"]').textContent();
  }

  /**
   * Runs a menu item and answers every alert it shows with the first of `buttons` offered,
   * however many there are (none included), until the run has finished.
   */
  async menuAnswering(
    functionName: string,
    buttons: Array<"OK" | "CANCEL" | "YES" | "NO">,
  ): Promise<string[]> {
    const before = await this.runsFinished();
    const messages: string[] = [];
    await this.clickMenu(functionName);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const done = await this.page.evaluate(
        (count) =>
          Number(document.body.dataset.refreshed ?? "0") > count &&
          (document.body.dataset.running ?? "0") === "0",
        before,
      );
      if (done) return messages;
      if (await this.page.locator('[data-testid="alert-dialog"]').isVisible()) {
        messages.push((await this.answerFirstOf(buttons)).message);
      }
      await this.page.waitForTimeout(100);
    }
    throw new Error(`${functionName} did not finish within 60 s`);
  }

  /** Clicks the first of `buttons` that the waiting alert offers. */
  async answerFirstOf(
    buttons: Array<"OK" | "CANCEL" | "YES" | "NO">,
  ): Promise<{ title: string; message: string }> {
    const dialog = this.page.locator('[data-testid="alert-dialog"]');
    await dialog.waitFor({ timeout: 30_000 });
    for (const button of buttons) {
      if ((await this.page.locator(`[data-testid="alert-button-${button}"]`).count()) > 0)
        return this.answer(button);
    }
    throw new Error(`The alert offers none of ${buttons.join(", ")}`);
  }

  /** Clicks a button of the alert the script is waiting on. */
  async answer(button: "OK" | "CANCEL" | "YES" | "NO"): Promise<{ title: string; message: string }> {
    const dialog = this.page.locator('[data-testid="alert-dialog"]');
    await dialog.waitFor({ timeout: 30_000 });
    const title = (await this.page.locator('[data-testid="alert-title"]').textContent()) ?? "";
    const message = (await this.page.locator('[data-testid="alert-message"]').textContent()) ?? "";
    await this.page.locator(`[data-testid="alert-button-${button}"]`).click();
    return { title, message };
  }

  toasts(): Promise<string[]> {
    return this.page.locator('[data-testid="toast"], [data-testid="error-toast"]').allTextContents();
  }
}
