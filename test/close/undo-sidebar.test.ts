/**
 * The Month-end close sidebar's "Undo a voucher" and four eyes, in Chromium at 300 px with
 * google.script.run answered by a scripted fake: the code picked from the Journal's vouchers,
 * the reports found listed before anything is sent, the undo sent with exactly that list; four
 * eyes turned from the sidebar; in English and in Spanish.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { scriptRunCalls as calls, sidebarPages } from "../support/sidebar-page";
import { closeView } from "./sidebar-view";

const sidebar = sidebarPages("close", { height: 900, delayMs: 1, failureKey: "error" });

const view = (language: "en" | "es", fourEyes = false) =>
  closeView(language, {
    fourEyes,
    fourEyesNote: fourEyes ? "on" : "off",
    journal: { company: "c1", month: "2024-05", currency: null },
    vouchers: ["202405001", "202405002"],
  });

const FOUND = {
  ok: true,
  message: "Voucher 202405002 of Beta: 2 reports are integrated with this code.",
  company: "c1",
  code: "202405002",
  reports: ["Report 000011 · CLP 1,000", "Report 000012 · CLP 2,000"],
  totals: ["CLP: 2 reports, CLP 3,000"],
  count: 2,
  ids: [11, 12],
};

const open = (answers: Record<string, unknown>): Promise<Page> => sidebar.open(answers);

describe("the close sidebar's Undo a voucher", () => {
  it("finds the picked voucher's reports, lists them, and undoes exactly that list once confirmed", async () => {
    const page = await open({
      getCloseView: view("en"),
      closeFindVoucher: FOUND,
      closeUndoVoucher: {
        ok: true,
        message: "2 of 2 reports set not integrated.",
        outcomes: [],
        more: false,
      },
    });
    expect(
      await page
        .locator("#undo-vouchers option")
        .evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)),
    ).toEqual(["202405001", "202405002"]);
    expect(await page.locator("#undo-company").inputValue()).toBe("c1");
    await page.fill("#undo-code", "202405002");
    await page.getByRole("button", { name: "Find its reports" }).click();
    await expect.poll(() => page.locator("#undo-reports li").allTextContents()).toEqual(FOUND.reports);
    expect(await page.locator("#undo-totals li").allTextContents()).toEqual(FOUND.totals);
    expect(await page.locator("#undo-status").textContent()).toBe(FOUND.message);
    // Nothing is undone before the confirmation.
    expect((await calls(page)).map((c) => c.name)).not.toContain("closeUndoVoucher");
    await page.getByRole("button", { name: "Undo these reports' integration" }).click();
    await expect
      .poll(() => page.locator("#undo-status").textContent())
      .toBe("2 of 2 reports set not integrated.");
    const sent = await calls(page);
    expect(sent.find((c) => c.name === "closeFindVoucher")?.args).toEqual([
      { company: "c1", code: "202405002" },
    ]);
    expect(sent.find((c) => c.name === "closeUndoVoucher")?.args).toEqual([
      { company: "c1", code: "202405002", ids: [11, 12] },
    ]);
    expect(await page.locator("#undo-confirm").count()).toBe(0);
    await page.close();
  });

  it("speaks Spanish, and shows the refusal of a list that changed since it was confirmed", async () => {
    const page = await open({
      getCloseView: view("es"),
      closeFindVoucher: {
        ...FOUND,
        message: "Comprobante 202405002 de Beta: 2 rendiciones están integradas con este código.",
      },
      closeUndoVoucher: {
        ok: false,
        message:
          "Las rendiciones integradas con 202405002 cambiaron desde que las confirmó (ahora también 000013): no se deshizo nada.",
        outcomes: [],
        more: false,
      },
    });
    expect(await page.getByRole("heading", { name: "Deshacer un comprobante" }).count()).toBe(1);
    await page.fill("#undo-code", "202405002");
    await page.getByRole("button", { name: "Buscar sus rendiciones" }).click();
    await page.getByRole("button", { name: "Deshacer la integración de estas rendiciones" }).click();
    await expect
      .poll(() => page.locator("#undo-status").textContent())
      .toContain("cambiaron desde que las confirmó (ahora también 000013)");
    expect(await page.locator("#undo-status").getAttribute("class")).toBe("status problem");
    await page.close();
  });
});

describe("the close sidebar's four eyes", () => {
  it("is the document's setting: no box sent with the build, a button turns it, the approval's line says it was voided", async () => {
    const page = await open({
      getCloseView: view("es", true),
      closeSetFourEyes: {
        fourEyes: false,
        message: "Cuatro ojos está desactivado en esta planilla. Último cambio: ben, el 2024-06-01 10:00:00.",
        approval: "El cambio anuló la aprobación del asiento: vuelva a aprobarlo antes de marcar.",
      },
    });
    expect(await page.locator("#close-four-eyes").count()).toBe(0);
    await page.getByRole("button", { name: "Desactivar cuatro ojos" }).click();
    await expect
      .poll(() => page.locator("#close-four-eyes-state").textContent())
      .toMatch(/^Cuatro ojos está desactivado/);
    expect(await page.locator("#close-approval").textContent()).toMatch(/anuló la aprobación/);
    expect(await page.locator("#close-four-eyes-toggle").textContent()).toBe("Activar cuatro ojos");
    expect((await calls(page)).find((c) => c.name === "closeSetFourEyes")?.args).toEqual([{ on: false }]);
    await page.close();
  });
});
