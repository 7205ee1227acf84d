/** Starting the sandbox's HTTP server in the current thread. */
import type { AddressInfo } from "node:net";
import { createSandboxServer, type SandboxOptions, type SandboxServer } from "./server";

/** A company of a running sandbox, as a client needs it. */
export interface RunningCompany {
  name: string;
  /** Sent as `Authorization: Bearer <token>`: it picks the company on the one URL. */
  token: string;
  adminId: number;
  managerId: number;
}

export interface RunningSandbox {
  /** Base URL of the API, ending in /v1 (what the add-on's base-URL setting takes). */
  url: string;
  /** Scheme, host and port, no path: /_sandbox routes hang from here. */
  origin: string;
  token: string;
  /** A user who may administer funds and manage reports. */
  adminId: number;
  /** A user with the management role only (custom statuses yes, fund writes no). */
  managerId: number;
  /**
   * Every company on this URL, the first first; `token`, `adminId` and `managerId` above are
   * the first's. Control routes take `?company=<name>` (the first when absent).
   */
  companies: RunningCompany[];
  close(): Promise<void>;
}

/** The sandbox in this thread; `sandbox` gives direct access to the ledger and faults for checks. */
export async function startSandbox(
  options: SandboxOptions = {},
): Promise<RunningSandbox & { sandbox: SandboxServer }> {
  const sandbox = createSandboxServer(options);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    sandbox.server.once("error", reject);
    sandbox.server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = sandbox.server.address() as AddressInfo;
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/v1`,
    origin,
    token: sandbox.token,
    adminId: sandbox.service.adminId,
    managerId: sandbox.service.managerId,
    companies: sandbox.companies.map((c) => ({
      name: c.name,
      token: c.token,
      adminId: c.service.adminId,
      managerId: c.service.managerId,
    })),
    sandbox,
    close() {
      closing ??= new Promise<void>((resolve) => {
        sandbox.server.close(() => resolve());
        sandbox.server.closeAllConnections();
      });
      return closing;
    },
  };
}
