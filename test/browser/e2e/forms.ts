/** Finding a sidebar form by its legend, filling it by labels, reading its outcome. */
import type { FrameLocator, Locator } from "playwright-core";

export class SidebarForm {
  readonly root: Locator;
  constructor(frame: FrameLocator, legend: string) {
    this.root = frame
      .locator("form")
      .filter({ has: frame.locator("legend", { hasText: new RegExp(`^${legend}$`) }) });
  }

  field(label: string): Locator {
    return this.root.getByLabel(label, { exact: true });
  }

  async fill(values: Record<string, string>): Promise<void> {
    for (const [label, value] of Object.entries(values)) {
      const field = this.field(label);
      if ((await field.evaluate((el) => el.tagName)) === "SELECT") await field.selectOption(value);
      else await field.fill(value);
    }
  }

  submit(): Promise<void> {
    return this.root.locator("button.action").first().click();
  }

  status(): Locator {
    return this.root.locator(".status").last();
  }

  /** Problems shown beside the fields and for the whole form, joined. */
  async problems(): Promise<string> {
    return (await this.root.locator(".problem").allTextContents()).filter(Boolean).join(" ");
  }
}

/** Amount in integer cents from a service number or numeric string. */
export function cents(amount: number | string): number {
  return Math.round(Number(amount) * 100);
}
