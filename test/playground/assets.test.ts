import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildPlaygroundAssets, callableFunctions } from "../../dev/playground/assets";

describe("callableFunctions", () => {
  it("lists top-level function declarations, not nested ones nor names ending in _", () => {
    const script = [
      "var AddOn = (() => {",
      "  function inner() {}",
      "})();",
      "function onOpen() { return AddOn.onOpen.apply(this, arguments); }",
      "function privateThing_() {}",
      "function testConnection () {}",
    ].join("\n");
    expect(callableFunctions(script)).toEqual(["onOpen", "testConnection"]);
  });
});

describe("buildPlaygroundAssets", () => {
  it("bundles the page, the bridge and the list of callable functions", async () => {
    const fixture = join(import.meta.dirname, "fixtures/dist");
    const assets = await buildPlaygroundAssets(fixture);
    try {
      for (const file of ["index.html", "style.css", "app.js", "bridge.js"]) {
        expect(existsSync(join(assets.dir, file)), file).toBe(true);
      }
      expect(JSON.parse(readFileSync(join(assets.dir, "functions.json"), "utf8"))).toEqual([
        "onOpen",
        "showFundSidebar",
      ]);
      // The bundle runs in a browser: no module syntax left.
      expect(readFileSync(join(assets.dir, "app.js"), "utf8")).not.toMatch(/^\s*(import|export)\s/m);
    } finally {
      assets.dispose();
    }
    expect(existsSync(assets.dir)).toBe(false);
  });

  it("says to build first when dist/addon.js is missing", async () => {
    await expect(buildPlaygroundAssets(join(import.meta.dirname, "fixtures/nothing"))).rejects.toThrow(
      /run `npm run build` first/,
    );
  });
});
