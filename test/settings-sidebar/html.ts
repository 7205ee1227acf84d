/**
 * The settings sidebar's HTML as scripts/build.ts makes it (client bundled, shared CSS inlined),
 * built here so that the tests do not depend on a dist/ that others rebuild at any moment.
 */
import { sidebarHtml } from "../support/sidebar-page";

export function settingsSidebarHtml(): string {
  return sidebarHtml("settings");
}
