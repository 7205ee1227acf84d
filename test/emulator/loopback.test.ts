/** Which hosts the emulation's UrlFetch tells when a call left (X-Sandbox-Sent-At): this machine's only. */
import { describe, expect, it } from "vitest";
import { isLoopbackHost } from "../../dev/emulator/loopback.mjs";

describe("the sent time goes to this machine only", () => {
  it("counts localhost, 127.x.x.x and [::1] as this machine", () => {
    for (const url of [
      "http://localhost:8787/v1",
      "http://127.0.0.1:1/",
      "http://127.1.2.3/",
      "http://[::1]:9/",
      "http://api.localhost/",
    ])
      expect(isLoopbackHost(new URL(url).hostname)).toBe(true);
  });
  it("counts any other host as elsewhere", () => {
    for (const url of [
      "https://api.example.com/v1",
      "http://10.0.0.5/",
      "http://128.0.0.1/",
      "http://[::2]/",
      "http://localhost.example.com/",
      "http://127.0.0.1.example.com/",
    ])
      expect(isLoopbackHost(new URL(url).hostname)).toBe(false);
  });
});
