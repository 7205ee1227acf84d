/**
 * The services the built add-on may call: `urlFetchWhitelist` of the manifest it is built
 * with (appsscript.json, which the build bundles with the code and copies into dist/). Apps
 * Script refuses a fetch to any URL outside it, sending nothing; the settings form warns
 * about a service URL outside it before anyone saves one.
 */
import { urlFetchWhitelist } from "../../appsscript.json";
import { allowedByList } from "../api/urls";
import { endpointUrl } from "../api/wire";

/** The manifest's allowlist prefixes, as built. */
export const MANIFEST_ALLOWLIST: readonly string[] = urlFetchWhitelist;

/**
 * Whether requests to the service at `baseUrl` fall under `allowlist` (the built manifest's by
 * default); an empty list allows everything, as a manifest without one does.
 */
export function serviceUrlAllowed(
  baseUrl: string,
  allowlist: readonly string[] = MANIFEST_ALLOWLIST,
): boolean {
  return allowlist.length === 0 || allowedByList(endpointUrl(baseUrl, "getFunds"), allowlist);
}
