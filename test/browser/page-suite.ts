/**
 * The page itself against a scripted control API: the grid shows values as Sheets would, the
 * selection and typing reach the control API, the add-on menu runs its items, alerts are
 * answered by clicking, toasts show, and the sidebar bridge follows google.script.run's rules.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildPlaygroundAssets, type PlaygroundAssets } from "../../dev/playground/assets";
import { type Browser, pageErrors, screenshot } from "./browser";
import { defaultState, type ScriptedControl, startScriptedControl } from "./scripted-control";
import { until } from "./until";

const fixtures = join(import.meta.dirname, "fixtures");

function fundsSheet() {
  return {
    name: "Funds",
    values: [
      ["Id", "Title", "Balance", "Created", "Flexible", "Code"],
      [101, "Caja chica Santiago", 1234.5, "2024-01-05T00:00:00.000Z", true, "00123"],
      [102, "Anticipo viaje", -20, "2024-03-09T15:04:05.000Z", false, "2024-01-05"],
    ],
    formulas: [
      ["", "", "", "", "", ""],
      ["", "", "", "", "", ""],
      ["", "", "=C2-1254.5", "", "", ""],
    ],
    numberFormats: [
      ["@", "@", "@", "@", "@", "@"],
      ["0", "@", "#,##0.00", "yyyy-mm-dd", "", "@"],
      ["0", "@", "#,##0.00", "yyyy-mm-dd hh:mm", "", "@"],
    ],
    fontColors: [[], [], ["#999999", "#999999"]],
    notes: [["Refreshed 2024-03-09 12:04 by ana@example.com."]],
    frozenRows: 1,
    frozenColumns: 1,
    validations: [
      { row: 2, column: 5, kind: "checkbox" as const, values: [] },
      { row: 3, column: 5, kind: "checkbox" as const, values: [] },
      { row: 2, column: 4, kind: "list" as const, values: ["a", "b"] },
    ],
  };
}

export function pageSuite(getBrowser: () => Browser): void {
  let assets: PlaygroundAssets;
  let control: ScriptedControl;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    assets = await buildPlaygroundAssets(join(fixtures, "dist"));
    control = await startScriptedControl(assets.dir);
  });

  afterAll(async () => {
    await page?.close();
    await control?.close();
    assets?.dispose();
  });

  beforeEach(async () => {
    control.state = defaultState();
    control.state.sheets = [
      fundsSheet(),
      { name: "Outbox", values: [["Operation"]], formulas: [], numberFormats: [], frozenRows: 1 },
    ];
    control.state.menu = [
      { label: "Refresh funds", function: "echo" },
      { label: "", function: "" },
      { label: "Open bridge sidebar", function: "showBridgeSidebar" },
      { label: "Close a fund", function: "closeFund" },
    ];
    control.onRun = async (fn, args) => ({ ok: true, result: { fn, args } });
    control.requests.length = 0;
    if (!page) {
      page = await getBrowser().context.newPage();
      errors = pageErrors(page);
    }
    errors.length = 0;
    await page.goto(control.url);
    await page.locator("body[data-ready='1']").waitFor();
  });

  const requestsTo = (path: string) => control.requests.filter((r) => r.path === path);
  const cell = (name: string) => page.locator(`[data-testid="cell-${name}"]`);
  const grid = () => page.locator('[data-testid="grid"]');

  describe("grid", () => {
    it("shows values through their number formats, with letters, row numbers and a frozen header", async () => {
      expect(await cell("C2").textContent()).toBe("1,234.50");
      expect(await cell("C3").textContent()).toBe("-20.00");
      expect(await cell("D2").textContent()).toBe("2024-01-05");
      expect(await cell("D3").textContent()).toBe("2024-03-09 15:04");
      expect(await cell("F2").textContent()).toBe("00123");
      expect(await cell("F3").textContent()).toBe("2024-01-05");
      // A row greyed by its font colour shows grey; the others keep the default.
      expect(await cell("A3").evaluate((td) => getComputedStyle(td).color)).toBe("rgb(153, 153, 153)");
      expect(await cell("A2").evaluate((td) => getComputedStyle(td).color)).not.toBe("rgb(153, 153, 153)");
      expect(await cell("C2").getAttribute("class")).toContain("align-right");
      expect((await cell("B2").getAttribute("class")) ?? "").not.toContain("align-right");
      // A note (when and by whom a sheet was refreshed) shows as in Sheets: a mark, its text on hover.
      expect(await cell("A1").getAttribute("title")).toBe("Refreshed 2024-03-09 12:04 by ana@example.com.");
      expect(await cell("A1").getAttribute("class")).toContain("has-note");
      expect(await cell("B1").getAttribute("title")).toBeNull();
      expect(await page.locator('[data-testid="col-header-F"]').textContent()).toBe("F");
      expect(await page.locator('[data-testid="row-header-3"]').textContent()).toBe("3");
      // The frozen header stays put when the grid scrolls.
      const before = await cell("A1").boundingBox();
      await grid().evaluate((el) => {
        el.scrollTop = 400;
      });
      const after = await cell("A1").boundingBox();
      expect(after?.y).toBe(before?.y);
      expect(
        await cell("A2")
          .boundingBox()
          .then((b) => b?.y ?? 0),
      ).toBeLessThan(before?.y ?? 0);
      expect(errors).toEqual([]);
    });

    it("draws checkboxes and dropdowns, and keeps frozen columns in place", async () => {
      expect(await cell("E2").textContent()).toBe("☑");
      expect(await cell("E3").textContent()).toBe("☐");
      expect(await cell("E3").getAttribute("aria-checked")).toBe("false");
      expect(await cell("D2").getAttribute("class")).toContain("dropdown");
      // A long value ends (with an ellipsis) before the arrow, never under it.
      expect(
        await cell("D2").evaluate((td) => Number.parseFloat(getComputedStyle(td).paddingRight)),
      ).toBeGreaterThanOrEqual(14);

      const before = await cell("A2").boundingBox();
      await grid().evaluate((el) => {
        el.scrollLeft = 300;
      });
      expect((await cell("A2").boundingBox())?.x).toBe(before?.x);
      expect((await cell("B2").boundingBox())?.x ?? 0).toBeLessThan(before?.x ?? 0);
      // A click on a checkbox ticks it; Space on a selected checkbox unticks it.
      await cell("E3").click();
      await until(() =>
        expect(requestsTo("/control/cells").at(-1)?.body).toMatchObject({ range: "E3", values: [["TRUE"]] }),
      );
      await page.keyboard.press("ArrowUp");
      await page.keyboard.press(" ");
      await until(() =>
        expect(requestsTo("/control/cells").at(-1)?.body).toMatchObject({ range: "E2", values: [["FALSE"]] }),
      );
    });

    it("opens a dropdown cell's list from its arrow, and the value chosen is typed into the cell", async () => {
      // A click in the cell only selects it (typing then types a value); its arrow opens the list.
      await cell("D2").click({ position: { x: 10, y: 8 } });
      expect(await page.locator('[data-testid="cell-dropdown"]').count()).toBe(0);
      const box = await cell("D2").boundingBox();
      await cell("D2").click({ position: { x: (box?.width ?? 100) - 6, y: 8 } });
      const list = page.locator('[data-testid="cell-dropdown"]');
      await list.waitFor();
      expect(await list.locator("option").allTextContents()).toEqual(["(empty)", "a", "b"]);
      await list.selectOption("b");
      await until(() =>
        expect(requestsTo("/control/cells").at(-1)?.body).toMatchObject({ range: "D2", values: [["b"]] }),
      );
      expect(await list.count()).toBe(0);
    });

    it("shows a HYPERLINK cell as a link to its address, and no link for other schemes", async () => {
      const sheet = fundsSheet();
      sheet.values[1]![1] = "receipt.pdf";
      sheet.formulas[1]![1] = '=HYPERLINK("https://files.example.com/receipt.pdf","receipt.pdf")';
      sheet.values[2]![1] = "x";
      sheet.formulas[2]![1] = '=HYPERLINK("javascript:alert(1)","x")';
      control.state.sheets = [sheet];
      await page.reload();
      await page.locator("body[data-ready='1']").waitFor();
      const link = cell("B2").locator("a");
      expect(await link.getAttribute("href")).toBe("https://files.example.com/receipt.pdf");
      expect(await link.getAttribute("rel")).toContain("noopener");
      expect(await link.textContent()).toBe("receipt.pdf");
      expect(await cell("B3").locator("a").count()).toBe(0);
      expect(await cell("B3").textContent()).toBe("x");
    });

    it("colours cells by their conditional formats and does not draw hidden columns", async () => {
      control.state.sheets = [
        {
          name: "Outbox",
          values: [
            ["State", "Result", "Operation", "Operation key", "Notes"],
            ["Done", "Done. Fund 5", "Deposit", "k-1", "mine"],
            ["Refused", "No such fund", "Withdraw", "k-2", ""],
          ],
          formulas: [],
          numberFormats: [],
          backgrounds: [[], ["#d9ead3", "#d9ead3", "", "", ""], ["#f4cccc", "#f4cccc", "", "", ""]],
          fontColors: [[], ["#274e13"], []],
          hiddenColumns: [4],
          frozenRows: 1,
        },
      ];
      await page.reload();
      await page.locator("body[data-ready='1']").waitFor();
      const background = (name: string) => cell(name).evaluate((td) => getComputedStyle(td).backgroundColor);
      expect(await background("A2")).toBe("rgb(217, 234, 211)");
      expect(await background("B3")).toBe("rgb(244, 204, 204)");
      expect(await cell("A2").evaluate((td) => getComputedStyle(td).color)).toBe("rgb(39, 78, 19)");
      expect(await background("C2")).not.toBe("rgb(217, 234, 211)");
      // Column D (the operation key) is hidden: no header, no cells; E follows C on screen.
      expect(await page.locator('[data-testid="col-header-D"]').isVisible()).toBe(false);
      expect(await cell("D2").isVisible()).toBe(false);
      expect(await page.locator('[data-testid="col-header-C"]').getAttribute("class")).toContain(
        "before-hidden",
      );
      const c = await cell("C2").boundingBox();
      const e = await cell("E2").boundingBox();
      expect(Math.round((e?.x ?? 0) - ((c?.x ?? 0) + (c?.width ?? 0)))).toBeLessThanOrEqual(1);
      expect(await cell("E2").textContent()).toBe("mine");
      // Arrows step over the hidden column, as in Sheets.
      await cell("C2").click();
      await page.keyboard.press("ArrowRight");
      await until(() => expect(requestsTo("/control/select").at(-1)?.body).toMatchObject({ range: "E2" }));
      expect(errors).toEqual([]);
    });

    it("draws at most 2000 rows of a large sheet and says so", async () => {
      control.state.sheets = [
        {
          name: "Expense reports",
          values: Array.from({ length: 3000 }, (_, i) => [i + 1, `Report ${i + 1}`]),
          formulas: [],
          numberFormats: [],
          frozenRows: 1,
        },
      ];
      await page.reload();
      await page.locator("body[data-ready='1']").waitFor();
      expect(await page.locator("tbody tr").count()).toBe(2000);
      expect(await page.locator(".grid-note").textContent()).toBe("Showing the first 2000 of 3000 rows.");
      expect(await cell("B2000").textContent()).toBe("Report 2000");
    });

    it("shows the formula of the selected cell in the formula bar", async () => {
      await cell("C3").click();
      expect(await page.locator('[data-testid="formula-bar"]').inputValue()).toBe("=C2-1254.5");
      expect(await page.locator('[data-testid="name-box"]').inputValue()).toBe("C3");
    });

    it("switches sheets with the tabs, by click and by arrow keys, and tells the control API", async () => {
      const tabs = page.locator('[data-testid="sheet-tab"]');
      expect(await tabs.allTextContents()).toEqual(["Funds", "Outbox"]);
      await tabs.nth(1).click();
      expect(await cell("A1").textContent()).toBe("Operation");
      expect(await tabs.nth(1).getAttribute("aria-selected")).toBe("true");
      await until(() =>
        expect(requestsTo("/control/select").at(-1)?.body).toEqual({
          sheet: "Outbox",
          range: "A1",
          user: "ana@example.com",
        }),
      );
      await page.keyboard.press("ArrowLeft");
      expect(await cell("A1").textContent()).toBe("Id");
    });
  });

  describe("selection", () => {
    it("selects by click, shift-click, arrows and row numbers, sending each range", async () => {
      const lastRange = () =>
        (requestsTo("/control/select").at(-1)?.body as { range?: string } | undefined)?.range;
      await cell("B2").click();
      await until(() => expect(lastRange()).toBe("B2"));
      await cell("D3").click({ modifiers: ["Shift"] });
      await until(() => expect(lastRange()).toBe("B2:D3"));
      expect(await page.locator("td.selected").count()).toBe(6);
      // The active cell stays where the selection started, and the formula bar shows that cell.
      expect(await page.locator("td.active").getAttribute("data-testid")).toBe("cell-B2");
      expect(await page.locator('[data-testid="formula-bar"]').inputValue()).toBe("Caja chica Santiago");
      await page.keyboard.press("ArrowDown");
      await until(() => expect(lastRange()).toBe("D4"));
      await page.keyboard.press("Shift+ArrowUp");
      await page.keyboard.press("Shift+ArrowLeft");
      await until(() => expect(lastRange()).toBe("C3:D4"));
      await page.locator('[data-testid="row-header-2"]').click();
      await page.locator('[data-testid="row-header-3"]').click({ modifiers: ["Shift"] });
      await until(() => expect(lastRange()).toBe("A2:Z3"));
      expect(await page.locator("td.active").getAttribute("data-testid")).toBe("cell-A2");
      expect(await page.locator('[data-testid="name-box"]').inputValue()).toBe("A2:Z3");
    });
  });

  describe("typing into cells", () => {
    it("sends typed text like a user, Enter commits and moves down, Escape cancels, Delete clears", async () => {
      await cell("A5").click();
      await page.keyboard.type("00123");
      await page.keyboard.press("Enter");
      await until(() =>
        expect(requestsTo("/control/cells").at(-1)?.body).toMatchObject({
          sheet: "Funds",
          range: "A5",
          values: [["00123"]],
        }),
      );
      expect(await page.locator('[data-testid="name-box"]').inputValue()).toBe("A6");
      await page.keyboard.type("=1+1");
      await page.keyboard.press("Escape");
      expect(requestsTo("/control/cells")).toHaveLength(1);
      await cell("B7").dblclick();
      await page.keyboard.type("Caja");
      await page.keyboard.press("Tab");
      await until(() =>
        expect(requestsTo("/control/cells").at(-1)?.body).toMatchObject({ range: "B7", values: [["Caja"]] }),
      );
      await cell("A2").click();
      await cell("B3").click({ modifiers: ["Shift"] });
      await page.keyboard.press("Delete");
      await until(() =>
        expect(requestsTo("/control/cells").at(-1)?.body).toMatchObject({
          range: "A2:B3",
          values: [
            ["", ""],
            ["", ""],
          ],
        }),
      );
      // Each write is followed by a fresh read of the sheets.
      await until(() => expect(requestsTo("/control/sheets").length).toBeGreaterThanOrEqual(4));
    });
  });

  describe("add-on menu", () => {
    it("shows the items onOpen built under Extensions and runs one on click", async () => {
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      const items = page.locator('[data-testid="menu-items"] [role="menuitem"]');
      expect(await items.allTextContents()).toEqual(["Refresh funds", "Open bridge sidebar", "Close a fund"]);
      expect(await page.locator('[data-testid="menu-items"] [role="separator"]').count()).toBe(1);
      await screenshot(page, "page-menu-scripted");
      await page.locator('[data-testid="menu-item-echo"]').click();
      await until(() =>
        expect(requestsTo("/control/run").at(-1)?.body).toEqual({
          function: "echo",
          args: [],
          as: "menu",
          user: "ana@example.com",
        }),
      );
      await until(async () =>
        expect(await page.locator('[data-testid="run-status"]').textContent()).toBe(
          "Refresh funds: finished",
        ),
      );
    });

    it("is usable with the keyboard alone", async () => {
      await page.locator('[data-testid="menu-extensions"]').focus();
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("Enter");
      await until(() =>
        expect((requestsTo("/control/run").at(-1)?.body as { function: string })?.function).toBe(
          "showBridgeSidebar",
        ),
      );
    });

    it("shows a failed menu item as an error notice", async () => {
      control.onRun = async () => ({ ok: false, error: "Service down: HTTP 503" });
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-echo"]').click();
      await page.locator('[data-testid="error-toast"]', { hasText: "Service down: HTTP 503" }).waitFor();
    });
  });

  describe("alerts and toasts", () => {
    it("shows an alert the script waits on, and the script gets the button clicked", async () => {
      let answered: unknown;
      control.onRun = async (fn, _args, c) => {
        c.state.ui.waiting = {
          kind: "alert",
          title: "Close fund 101?",
          message: "This cannot be undone.",
          buttons: "YES_NO",
        };
        answered = await c.nextAnswer();
        c.state.ui.toasts = [{ id: "t1", message: "Fund 101 closed", title: "Funds", seconds: 5 }];
        return { ok: true, result: fn };
      };
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-closeFund"]').click();
      const dialog = page.locator('[data-testid="alert-dialog"]');
      await dialog.waitFor();
      expect(await page.locator('[data-testid="alert-title"]').textContent()).toBe("Close fund 101?");
      expect(await page.locator('[data-testid="alert-button-NO"]').isVisible()).toBe(true);
      await screenshot(page, "page-alert-scripted");
      await page.locator('[data-testid="alert-button-YES"]').click();
      await until(() => expect(answered).toBe("YES"));
      await page.locator('[data-testid="toast"]', { hasText: "Fund 101 closed" }).waitFor();
      await dialog.waitFor({ state: "hidden" });
      // A toast shown before the page was reloaded does not pop up again.
      await page.reload();
      await page.locator("body[data-ready='1']").waitFor();
      await page.waitForTimeout(500);
      expect(await page.locator('[data-testid="toast"]').count()).toBe(0);
    });

    it("answers CLOSE with the title bar's X, and does not show an answered alert again", async () => {
      const answers: unknown[] = [];
      control.onRun = async (_fn, _args, c) => {
        c.state.ui.waiting = {
          kind: "alert",
          title: "",
          message: "The Outbox sheet is ready.",
          buttons: ["OK"],
        };
        answers.push(await c.nextAnswer());
        return { ok: true, result: null };
      };
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-echo"]').click();
      await page.locator('[data-testid="alert-dialog"]').waitFor();
      await page.locator('[data-testid="alert-button-CLOSE"]').click();
      await until(() => expect(answers).toEqual(["CLOSE"]));
      await until(async () =>
        expect(await page.locator('[data-testid="run-status"]').textContent()).toBe(
          "Refresh funds: finished",
        ),
      );
      expect(await page.locator('[data-testid="alert-dialog"]').isVisible()).toBe(false);
    });

    it("labels the buttons in the document's language, as a Spanish user's Sheets would", async () => {
      const answers: unknown[] = [];
      control.onRun = async (_fn, _args, c) => {
        c.state.ui.waiting = {
          kind: "alert",
          title: "",
          message: "¿Cerrar el fondo 101?",
          buttons: "YES_NO",
        };
        answers.push(await c.nextAnswer());
        c.state.ui.waiting = { kind: "alert", title: "", message: "Listo.", buttons: "OK_CANCEL" };
        answers.push(await c.nextAnswer());
        return { ok: true, result: null };
      };
      const labels = async () =>
        (await page.locator("#alert-buttons button").allTextContents()).concat(
          (await page.locator('[data-testid="alert-button-CLOSE"]').getAttribute("aria-label")) ?? "",
        );
      // A document whose settings are in Spanish, opened: its questions have Spanish buttons.
      control.state.properties = { document: { "settings.form": JSON.stringify({ language: "es" }) } };
      await page.reload();
      await page.locator("body[data-ready='1']").waitFor();
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-echo"]').click();
      await page.locator('[data-testid="alert-dialog"]').waitFor();
      expect(await labels()).toEqual(["Sí", "No", "Cerrar"]);
      expect(await page.locator("#alert-layer").getAttribute("lang")).toBe("es");
      await page.locator('[data-testid="alert-button-YES"]').click();
      await until(() => expect(answers).toEqual(["YES"]));
      await page.locator('[data-testid="alert-button-CANCEL"]').waitFor();
      expect(await labels()).toEqual(["Aceptar", "Cancelar", "Cerrar"]);
      // This run changes the language back: the questions after it are in English.
      control.state.properties = { document: { "settings.form": JSON.stringify({ language: "en" }) } };
      await page.locator('[data-testid="alert-button-OK"]').click();
      await until(() => expect(answers).toEqual(["YES", "OK"]));
      control.onRun = async (_fn, _args, c) => {
        c.state.ui.waiting = { kind: "alert", title: "", message: "Done.", buttons: "OK_CANCEL" };
        answers.push(await c.nextAnswer());
        return { ok: true, result: null };
      };
      await until(async () =>
        expect(await page.locator('[data-testid="run-status"]').textContent()).toBe(
          "Refresh funds: finished",
        ),
      );
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-echo"]').click();
      await page.locator('[data-testid="alert-button-CANCEL"]').waitFor();
      expect(await labels()).toEqual(["OK", "Cancel", "Close"]);
      await page.locator('[data-testid="alert-button-OK"]').click();
      await until(() => expect(answers).toEqual(["YES", "OK", "OK"]));
    });

    it("answers a prompt with the text typed", async () => {
      let answered: unknown;
      control.onRun = async (_fn, _args, c) => {
        c.state.ui.waiting = {
          kind: "prompt",
          title: "Fund id",
          message: "Which fund?",
          buttons: "OK_CANCEL",
        };
        answered = await c.nextAnswer();
        return { ok: true, result: null };
      };
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-echo"]').click();
      await page.locator('[data-testid="prompt-input"]').fill("101");
      await page.locator('[data-testid="alert-button-OK"]').click();
      await until(() => expect(answered).toEqual({ button: "OK", text: "101" }));
    });
  });

  describe("sidebar bridge", () => {
    beforeEach(() => {
      const html = readFileSync(join(fixtures, "bridge-sidebar.html"), "utf8");
      control.onRun = async (fn, args, c) => {
        if (fn === "showBridgeSidebar") {
          // Like the emulation, the shown sidebar carries no identity.
          c.state.ui.sidebar = { kind: "sidebar", title: "Bridge", html, width: 300, height: 0 };
          return { ok: true, result: null };
        }
        if (fn === "failing") return { ok: false, error: "Fund 999 does not exist" };
        return { ok: true, result: { received: args } };
      };
    });

    async function openSidebar() {
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-showBridgeSidebar"]').click();
      await page.locator('[data-testid="sidebar"]').waitFor();
      const frame = page.frameLocator('[data-testid="sidebar-frame"]');
      await frame.locator("body[data-ready='1']").waitFor();
      return frame;
    }

    it("shows the HTML beside the grid, 300 px wide, in a sandboxed frame", async () => {
      await openSidebar();
      const box = await page.locator('[data-testid="sidebar-frame"]').boundingBox();
      expect(box?.width).toBe(300);
      expect(await page.locator('[data-testid="sidebar-title"]').textContent()).toBe("Bridge");
      expect(await page.locator('[data-testid="sidebar-frame"]').getAttribute("sandbox")).not.toContain(
        "allow-same-origin",
      );
    });

    it("runs server functions with success handlers, user objects and Google's argument copying", async () => {
      const frame = await openSidebar();
      const sheetsBefore = requestsTo("/control/sheets").length;
      await frame.locator("#echo").click();
      const out = frame.locator("#out");
      await until(async () =>
        expect(await out.textContent()).toBe(
          `success:${JSON.stringify({ received: [{ a: [1, null, "x"], c: true }, null] })}:row-7`,
        ),
      );
      expect(requestsTo("/control/run").at(-1)?.body).toEqual({
        function: "echo",
        args: [{ a: [1, null, "x"], c: true }, null],
        as: "script.run",
        user: "ana@example.com",
      });
      // The grid refreshes after every run.
      expect(requestsTo("/control/sheets").length).toBeGreaterThan(sheetsBefore);
    });

    it("sends a form element as its fields' values", async () => {
      const frame = await openSidebar();
      await frame.locator("#echo-form").click();
      await until(async () =>
        expect(await frame.locator("#out").textContent()).toBe(
          `form:${JSON.stringify({ received: [{ amount: "12.50", flexible: "on" }] })}`,
        ),
      );
    });

    it("calls the failure handler with an Error and the user object", async () => {
      const frame = await openSidebar();
      await frame.locator("#fail").click();
      await until(async () =>
        expect(await frame.locator("#out").textContent()).toBe("failure:Fund 999 does not exist:u1"),
      );
    });

    it("refuses a Date argument before sending, and hides functions ending in _ and unknown ones", async () => {
      const frame = await openSidebar();
      const runsBefore = requestsTo("/control/run").length;
      await frame.locator("#date").click();
      expect(await frame.locator("#out").textContent()).toBe(
        "thrown:TypeError:Failed due to illegal value in property: when",
      );
      expect(requestsTo("/control/run").length).toBe(runsBefore);
      await frame.locator("#private").click();
      expect(await frame.locator("#out").textContent()).toBe("private:undefined:undefined");
      // A server function taken off its runner fails, as a method needing `this` does.
      await frame.locator("#detached").click();
      expect(await frame.locator("#out").textContent()).toBe("thrown:TypeError");
      expect(requestsTo("/control/run").length).toBe(runsBefore);
    });

    it("loads the sidebar afresh when the item that showed it runs again, not for other items", async () => {
      const frame = await openSidebar();
      const first = await frame.locator("body").getAttribute("data-load");
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-echo"]').click();
      await until(async () =>
        expect(await page.locator('[data-testid="run-status"]').textContent()).toBe(
          "Refresh funds: finished",
        ),
      );
      expect(await frame.locator("body").getAttribute("data-load")).toBe(first);
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-showBridgeSidebar"]').click();
      await until(async () => {
        const now = await frame.locator("body[data-ready='1']").getAttribute("data-load");
        expect(now).not.toBe(first);
      });
    });

    it("shows a modal dialog with the same bridge, closed by google.script.host.close()", async () => {
      const html = readFileSync(join(fixtures, "bridge-sidebar.html"), "utf8");
      control.onRun = async (fn, args, c) => {
        if (fn === "showBridgeSidebar") {
          c.state.ui.dialog = { kind: "modal", title: "Confirm batch", html, width: 400, height: 300 };
          return { ok: true, result: null };
        }
        return { ok: true, result: { received: args } };
      };
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-showBridgeSidebar"]').click();
      await page.locator('[data-testid="dialog"]').waitFor();
      const frame = page.frameLocator('[data-testid="dialog-frame"]');
      await frame.locator("#echo").click();
      await until(async () => expect(await frame.locator("#out").textContent()).toMatch(/^success:/));
      await frame.locator("#close").click();
      await page.locator('[data-testid="dialog"]').waitFor({ state: "hidden" });
      await until(() => expect(requestsTo("/control/ui/close").at(-1)?.body).toEqual({ kind: "dialog" }));
    });

    it("closes with google.script.host.close()", async () => {
      const frame = await openSidebar();
      await frame.locator("#close").click();
      await page.locator('[data-testid="sidebar"]').waitFor({ state: "hidden" });
      await until(() => expect(requestsTo("/control/ui/close").at(-1)?.body).toEqual({ kind: "sidebar" }));
    });
  });

  describe("panel", () => {
    it("injects a fault preset, fires the trigger, resets and acts as the other user", async () => {
      // One company (info lists none): no company to choose, the fault goes to the only one.
      expect(await page.locator('[data-testid="fault-company"]').isVisible()).toBe(false);
      await page.locator('[data-testid="fault-preset"]').selectOption("down");
      await page.locator('[data-testid="fault-apply"]').click();
      await until(() =>
        expect(requestsTo("/playground/sandbox/faults").at(-1)).toMatchObject({
          method: "POST",
          body: { rules: [{ endpoint: "*", fault: "status", status: 503 }] },
        }),
      );
      await page.locator('[data-testid="fault-active"]', { hasText: "Service down" }).waitFor();
      await page.locator('[data-testid="fault-clear"]').click();
      await until(() => expect(requestsTo("/playground/sandbox/faults").at(-1)?.method).toBe("DELETE"));
      await page.locator('[data-testid="fire-trigger"]').click();
      await until(() => expect(requestsTo("/control/triggers/fire")).toHaveLength(1));
      await page.locator('[data-testid="acting-user"]').selectOption("luis@example.com");
      await page.locator('[data-testid="menu-extensions"]').click();
      await page.locator('[data-testid="menu-addon"]').click();
      await page.locator('[data-testid="menu-item-echo"]').click();
      await until(() =>
        expect((requestsTo("/control/run").at(-1)?.body as { user?: string } | undefined)?.user).toBe(
          "luis@example.com",
        ),
      );
      await page.locator('[data-testid="reset"]').click();
      await until(() => expect(requestsTo("/control/reset")).toHaveLength(1));
      expect(requestsTo("/playground/sandbox/reset")).toHaveLength(1);
      // Every control in the panel has a label or visible text.
      const unlabelled = await page.locator('[data-testid="panel"]').evaluate((panel) =>
        Array.from(panel.querySelectorAll("button, select, input"))
          .filter((el) => {
            const id = el.id;
            const label = id ? panel.querySelector(`label[for="${id}"]`) : null;
            return !label && !(el.textContent ?? "").trim() && !el.getAttribute("aria-label");
          })
          .map((el) => el.id),
      );
      expect(unlabelled).toEqual([]);
    });
  });
}
