import { afterAll, describe, expect, it } from "vitest";
import { fixtureEmulator, inScript } from "./helpers";

const em = fixtureEmulator();
afterAll(() => em.close());

const ask = `var ui = SpreadsheetApp.getUi();
  var b = ui.alert("Send 3 deposits?", ui.ButtonSet.YES_NO);
  return [String(b), b === ui.Button.YES];`;

describe("Ui dialogs", () => {
  it("answers alerts from the queue, in order", () => {
    em.answers.push("YES", "no");
    expect(inScript(em, ask)).toEqual(["YES", true]);
    expect(inScript(em, ask)).toEqual(["NO", false]);
    expect(em.ui.dialogs.slice(-1)[0]).toMatchObject({
      kind: "alert",
      prompt: "Send 3 deposits?",
      buttons: ["YES", "NO"],
      answer: { button: "NO" },
    });
  });
  it("fails the execution on an unanswered alert, even if the script catches it", () => {
    expect(() =>
      inScript(em, `try { SpreadsheetApp.getUi().alert("Sure?"); } catch (e) {} return "went on";`),
    ).toThrow('Ui.alert("Sure?") was shown but no answer was queued');
  });
  it("refuses an answer the dialog does not offer, but always allows CLOSE", () => {
    em.answers.push("CANCEL");
    expect(() => inScript(em, ask)).toThrow('Answer "CANCEL" does not fit the alert');
    em.answers.push("CLOSE");
    expect(inScript(em, ask)).toEqual(["CLOSE", false]);
  });
  it("answers prompts with a button and text", () => {
    em.answers.push({ button: "OK", text: "INV-42" }, "just text");
    const src = `var r = SpreadsheetApp.getUi().prompt("Voucher", "ERP voucher number:", SpreadsheetApp.getUi().ButtonSet.OK_CANCEL);
      return [String(r.getSelectedButton()), r.getResponseText()];`;
    expect(inScript(em, src)).toEqual(["OK", "INV-42"]);
    expect(inScript(em, src)).toEqual(["OK", "just text"]);
  });
  it("releases locks while the script waits on a dialog", () => {
    em.answers.push("OK");
    expect(
      inScript(
        em,
        `var l = LockService.getDocumentLock(); l.waitLock(1000); SpreadsheetApp.getUi().alert("x"); return l.hasLock();`,
      ),
    ).toBe(false);
  });
  it("waits for an answer in interactive mode instead of failing", () => {
    const asked: string[] = [];
    const interactive = fixtureEmulator({
      waitForAnswer: (dialog) => {
        asked.push(dialog.prompt);
        return "YES";
      },
    });
    try {
      expect(inScript(interactive, ask)).toEqual(["YES", true]);
      expect(asked).toEqual(["Send 3 deposits?"]);
    } finally {
      void interactive.close();
    }
  });
});

describe("menus, sidebars, toasts", () => {
  it("records the add-on menu with its items and separators", () => {
    em.open();
    expect(em.ui.menus.find((m) => m.addon)?.items.map((i) => i.label)).toEqual([
      "Refresh funds",
      "-",
      "Settings",
    ]);
    // onOpen run again replaces the menu rather than adding a second one.
    em.open();
    expect(em.ui.menus.filter((m) => m.addon)).toHaveLength(1);
  });
  it("records toasts and dialogs", () => {
    em.run("refreshFunds", [], { as: "menu" });
    expect(em.ui.toasts.slice(-1)[0]).toMatchObject({ message: "Refreshed", title: "Funds", seconds: 3 });
    inScript(
      em,
      `SpreadsheetApp.getUi().showModalDialog(HtmlService.createHtmlOutput("<p>hi</p>").setWidth(400), "Preview");`,
    );
    expect(em.ui.dialog).toMatchObject({ kind: "modal", title: "Preview", html: "<p>hi</p>", width: 400 });
  });
});
