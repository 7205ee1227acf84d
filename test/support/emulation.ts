/**
 * What the emulated test files that make a fresh emulator for each test share: the emulator of
 * the built add-on, and the close of what a file opened.
 */
import { createEmulator, type Emulator, type EmulatorOptions } from "../../dev/emulator/index";
import { servicePrefix } from "../../dev/emulator/settings";

/** Closes what a file opened, in order (the emulator, then the sandbox); what was not opened is passed over. */
export async function closeAll(...opened: ({ close(): Promise<void> } | undefined)[]): Promise<void> {
  for (const one of opened) await one?.close();
}

/**
 * A fresh emulator of the add-on built in `distDir`, used by `users`, in Santiago's time; with
 * `serviceUrl`, UrlFetch may reach that service (the sandbox) and nothing else. `options` add to
 * these or replace them.
 */
export function emulatorOf(
  distDir: string,
  users: string[],
  options: EmulatorOptions & { serviceUrl?: string } = {},
): Emulator {
  const { serviceUrl, ...rest } = options;
  return createEmulator({
    distDir,
    users,
    timeZone: "America/Santiago",
    ...(serviceUrl !== undefined ? { urlFetchAllowlist: [servicePrefix(serviceUrl)] } : {}),
    ...rest,
  });
}
