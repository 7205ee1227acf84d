/**
 * getFunds and getExpenseReports as JSON text, joined from each record's text kept until the
 * ledger's next write: a page of 1,000 reports asked again costs a join, not 1,000 shapes and
 * a serialisation. The text is the one `jsonText` gives for the same answer's object.
 */
import { jsonText } from "./json-text";
import type { Ledger } from "./ledger";
import type { Fund, Report } from "./model";
import type { PageOf } from "./queries";
import { fundListItem, reportListItem } from "./shapes";

interface Kept {
  revision: number;
  origin: string;
  text: string;
}

/** Each record's text, made at one revision of the ledger (and one origin, for file links). */
export class RecordTexts<T extends object> {
  private readonly kept = new WeakMap<T, Kept>();

  constructor(private readonly shape: (record: T, ledger: Ledger, origin: string) => unknown) {}

  text(record: T, ledger: Ledger, origin: string): string {
    const kept = this.kept.get(record);
    if (kept && kept.revision === ledger.revision && kept.origin === origin) return kept.text;
    const text = jsonText(this.shape(record, ledger, origin));
    this.kept.set(record, { revision: ledger.revision, origin, text });
    return text;
  }
}

export class ListTexts {
  private readonly funds = new RecordTexts<Fund>((fund) => fundListItem(fund));
  private readonly reports = new RecordTexts<Report>(reportListItem);

  fundList(page: PageOf<Fund>, ledger: Ledger): string {
    const records = {
      TotalRecords: page.total,
      Funds: page.items.length,
      Page: page.page,
      Pages: page.pages,
    };
    return listText(records, "Funds", page.items, (fund) => this.funds.text(fund, ledger, ""));
  }

  reportList(page: PageOf<Report>, ledger: Ledger, origin: string): string {
    const records = {
      TotalRecords: page.total,
      Reports: page.items.length,
      Page: page.page,
      Pages: page.pages,
    };
    return listText(records, "ExpenseReports", page.items, (report) =>
      this.reports.text(report, ledger, origin),
    );
  }
}

function listText<T>(records: object, member: string, items: T[], text: (item: T) => string): string {
  const parts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) parts[i] = text(items[i] as T);
  return `{"Records":${jsonText(records)},${JSON.stringify(member)}:[${parts.join(",")}]}`;
}
