/**
 * The services the built add-on may call: `urlFetchWhitelist` of the manifest it is built
 * with (appsscript.json, which the build bundles with the code and copies into dist/). Apps
 * Script refuses a fetch to any URL outside it, sending nothing; the settings form warns
 * about a service URL outside it before anyone saves one.
 */
import { urlFetchWhitelist } from "../../appsscript.json";

/** The manifest's allowlist prefixes, as built. */
export const MANIFEST_ALLOWLIST: readonly string[] = urlFetchWhitelist;
