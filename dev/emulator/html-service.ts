/**
 * HtmlService over the HTML files of dist/: outputs from files or strings, and templates whose
 * scriptlets run in the script's realm (`<? code ?>`, `<?= escaped ?>`, `<?!= raw ?>`).
 */
import { makeEnum } from "./enums";
import { ServiceError } from "./errors";
import { Fake } from "./realm";
import type { Implements } from "./typed";

export const SANDBOX_MODE = makeEnum(["EMULATED", "IFRAME", "NATIVE"] as const);
export const XFRAME_OPTIONS_MODE = makeEnum(["ALLOWALL", "DEFAULT"] as const);

/** What HtmlService needs: the files of dist/ and a compiler into the script's realm. */
export interface HtmlHost {
  readHtmlFile(name: string): string | undefined;
  /** Compiles template source into a function of the script's realm: (data) => html. */
  compileTemplate(source: string): (data: object) => string;
}

/** Escapes text for HTML, as `<?= ?>` does. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The JavaScript source of a template function; `with` gives scriptlets the template's fields. */
export function templateToCode(source: string): string {
  let code = "(function (__data, __escape) {\nvar __out = '';\n";
  code +=
    "var output = { append: function (s) { __out += s; return output; }, appendUntrusted: function (s) { __out += __escape(s); return output; }, clear: function () { __out = ''; return output; } };\n";
  code += "with (__data) {\n";
  const re = /<\?(!=|=)?([\s\S]*?)\?>/g;
  let last = 0;
  let m: RegExpExecArray | null = re.exec(source);
  while (m) {
    code += `__out += ${JSON.stringify(source.slice(last, m.index))};\n`;
    const body = m[2] as string;
    if (m[1] === "=") code += `__out += __escape(${body.trim()});\n`;
    else if (m[1] === "!=") code += `__out += String(${body.trim()});\n`;
    else code += `${body}\n`;
    last = re.lastIndex;
    m = re.exec(source);
  }
  code += `__out += ${JSON.stringify(source.slice(last))};\n}\nreturn __out;\n})`;
  return code;
}

export class FakeHtmlOutput
  extends Fake
  implements
    Implements<
      GoogleAppsScript.HTML.HtmlOutput,
      | "getContent"
      | "setContent"
      | "append"
      | "appendUntrusted"
      | "getTitle"
      | "setTitle"
      | "getWidth"
      | "setWidth"
      | "getHeight"
      | "setHeight"
      | "setSandboxMode"
      | "setXFrameOptionsMode"
      | "addMetaTag"
      | "setFaviconUrl"
    >
{
  static override readonly service = "HtmlOutput";
  private title = "";
  private width = 600;
  private height = 400;
  constructor(private content: string) {
    super();
  }
  getContent(): string {
    return this.content;
  }
  setContent(content: string): this {
    this.content = String(content);
    return this;
  }
  append(addedContent: string): this {
    this.content += String(addedContent);
    return this;
  }
  appendUntrusted(addedContent: string): this {
    this.content += escapeHtml(String(addedContent));
    return this;
  }
  getTitle(): string {
    return this.title;
  }
  setTitle(title: string): this {
    this.title = String(title);
    return this;
  }
  getWidth(): number {
    return this.width;
  }
  setWidth(width: number): this {
    this.width = Number(width);
    return this;
  }
  getHeight(): number {
    return this.height;
  }
  setHeight(height: number): this {
    this.height = Number(height);
    return this;
  }
  setSandboxMode(_mode: GoogleAppsScript.HTML.SandboxMode): this {
    return this;
  }
  setXFrameOptionsMode(_mode: GoogleAppsScript.HTML.XFrameOptionsMode): this {
    return this;
  }
  addMetaTag(_name: string, _content: string): this {
    return this;
  }
  setFaviconUrl(_iconUrl: string): this {
    return this;
  }
}

export class FakeHtmlTemplate
  extends Fake
  implements Implements<GoogleAppsScript.HTML.HtmlTemplate, "evaluate" | "getCode" | "getRawContent">
{
  static override readonly service = "HtmlTemplate";
  // Fields a script sets on the template (`t.items = …`) land on this object.
  [field: string]: unknown;

  constructor(
    private readonly source: string,
    private readonly templateHost: HtmlHost,
  ) {
    super();
  }
  evaluate(): FakeHtmlOutput {
    const data: Record<string, unknown> = {};
    for (const key of Object.keys(this)) {
      if (key !== "source" && key !== "templateHost") data[key] = this[key];
    }
    const render = this.templateHost.compileTemplate(this.source);
    return new FakeHtmlOutput(render(data));
  }
  getCode(): string {
    return templateToCode(this.source);
  }
  getRawContent(): string {
    return this.source;
  }
}

export class FakeHtmlService
  extends Fake
  implements
    Implements<
      GoogleAppsScript.HTML.HtmlService,
      "createHtmlOutput" | "createHtmlOutputFromFile" | "createTemplate" | "createTemplateFromFile"
    >
{
  static override readonly service = "HtmlService";
  readonly SandboxMode = SANDBOX_MODE;
  readonly XFrameOptionsMode = XFRAME_OPTIONS_MODE;
  constructor(private readonly host: HtmlHost) {
    super();
  }
  private file(filename: string): string {
    const content = this.host.readHtmlFile(String(filename));
    if (content === undefined) throw new ServiceError(`No HTML file named ${filename} was found.`);
    return content;
  }
  createHtmlOutput(html?: unknown): FakeHtmlOutput {
    return new FakeHtmlOutput(html === undefined ? "" : String(html));
  }
  createHtmlOutputFromFile(filename: string): FakeHtmlOutput {
    return new FakeHtmlOutput(this.file(filename));
  }
  createTemplate(html: unknown): FakeHtmlTemplate {
    return new FakeHtmlTemplate(String(html), this.host);
  }
  createTemplateFromFile(filename: string): FakeHtmlTemplate {
    return new FakeHtmlTemplate(this.file(filename), this.host);
  }
}
