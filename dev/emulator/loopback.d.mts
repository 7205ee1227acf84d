/** Whether a URL's host name is this machine's loopback: where the sandbox runs. */
export function isLoopbackHost(hostname: string): boolean;
