/**
 * The Refresh sidebar's view of several companies: each one's last refresh (its own stamps) and
 * whether this user can refresh it.
 */
import { describe, expect, it } from "vitest";
import { refreshStatusOf } from "../../src/refresh/company-freshness";
import { companyFreshness } from "../../src/refresh/words";

const NAMES = { funds: "Funds", transactions: "Fund transactions", reports: "Expense reports" };

describe("companyFreshness", () => {
  it("gives each company its own last refresh and this user's status, removed ones left out", () => {
    const view = companyFreshness(
      [
        { key: "c0", name: "Alpha", status: "ready", removed: false },
        { key: "cbeta", name: "Beta", status: "noToken", removed: false },
        { key: "cgamma", name: "Gamma", status: "renamed", removed: false },
        { key: "cold", name: "Old", status: "ready", removed: true },
      ],
      {
        c0: { funds: { when: "2024-06-30 09:00", who: "ana@example.com" } },
        cbeta: {
          funds: { when: "2024-06-29 08:00", who: "Schedule" },
          reports: { when: "2024-06-29 08:01", who: "ben@example.com" },
        },
      },
      NAMES,
      "en",
    );
    expect(view.map((c) => [c.key, c.name, c.status])).toEqual([
      ["c0", "Alpha", "ready"],
      ["cbeta", "Beta", "noToken"],
      ["cgamma", "Gamma", "confirm"],
    ]);
    expect(view[0]?.fresh).toEqual(["Funds: refreshed 2024-06-30 09:00 by ana@example.com."]);
    expect(view[1]?.fresh).toEqual([
      "Funds: refreshed 2024-06-29 08:00 by Schedule.",
      "Expense reports: refreshed 2024-06-29 08:01 by ben@example.com.",
    ]);
    expect(view[2]?.fresh).toEqual(["Not refreshed yet."]);
    expect(view[0]?.statusText).toBe("Ready to refresh with your token.");
    expect(view[1]?.statusText).toMatch(/no access token of yours/);
    expect(view[2]?.statusText).toMatch(/confirm it in Settings/);
  });

  it("speaks Spanish", () => {
    const [only] = companyFreshness(
      [{ key: "c0", name: "Alfa", status: "repointed", removed: false }],
      {},
      { funds: "Fondos", transactions: "Movimientos de fondos", reports: "Rendiciones" },
      "es",
    );
    expect(only?.statusText).toMatch(/hasta que la confirme en Configuración/);
    expect(only?.fresh).toEqual(["Aún no se ha actualizado."]);
  });

  it("tells the statuses apart", () => {
    expect(refreshStatusOf("ready")).toBe("ready");
    expect(refreshStatusOf("noToken")).toBe("noToken");
    expect(refreshStatusOf("renamed")).toBe("confirm");
    expect(refreshStatusOf("repointed")).toBe("confirm");
    expect(refreshStatusOf("unbound")).toBe("unusable");
    expect(refreshStatusOf("removed")).toBe("unusable");
  });
});
