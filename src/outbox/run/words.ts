/**
 * The Outbox run's words module: what a run writes into the rows and the audit as it goes, said
 * in the document's language. `runWords` is handed to the run as its `words` port where the run
 * starts (src/app/outbox.ts); `auditWords` to the audit of its writes. The helpers of the forms'
 * and the preview's modules that still take a language (a request described, a row's changes,
 * its problems and company, a State's label) are called here with it.
 */

import { moneyText } from "../../api/money";
import { plainWriteRefusal } from "../../api/plain";
import { totalsAfterText } from "../../api/words";
import type { Language } from "../../i18n";
import { say, type WordValue } from "../../i18n/words";
import type { AuditWords } from "../audit";
import { companyRefusedText } from "../companies/words";
import { describeChanges, describeRequest, tooLongParams } from "../describe";
import { fundStatusLabel, operationLabel, stateLabel } from "../operations/words";
import { fieldLabel, requestProblemsText } from "../rows/words";
import type { Money, RunSaid, RunWords } from "./context";

/** A value of the run's words in `language`: an amount as money, anything else as said. */
function valueIn(language: Language, value: WordValue | Money): WordValue {
  if (typeof value === "object" && "cents" in value) return moneyText(value.cents, value.currency, language);
  return value;
}

/** `words` of a run in `language`. */
export function sayRun(language: Language, words: RunSaid): string {
  const params: Record<string, WordValue> = {};
  for (const [name, value] of Object.entries(words.params ?? {})) params[name] = valueIn(language, value);
  return say(language, { key: words.key, params });
}

/** How a run of the Outbox says what it writes, in `language` (the document's). */
export function runWords(language: Language): RunWords {
  return {
    say: (words) => sayRun(language, words),
    totalsAfter: (field, totals, movement, amountCents) =>
      totalsAfterText(language, field, totals, movement, amountCents),
    state: (shown) => stateLabel(language, shown),
    fundStatus: (status) => fundStatusLabel(language, status),
    request: (request, currency) => describeRequest(language, request, currency),
    changes: (before, now, columns) => describeChanges(language, before, now, columns),
    refusal: (refusal, currency) => plainWriteRefusal(refusal, language, currency),
    field: (field) => fieldLabel(language, field),
    problems: (problems) => requestProblemsText(language, problems),
    companyRefused: (refused) => companyRefusedText(language, refused),
    tooLong: (tooLong) => tooLongParams(language, tooLong),
  };
}

/** How the audit of a run's or a form's writes says its rows, in `language`. */
export function auditWords(language: Language): AuditWords {
  return {
    say: (words) => say(language, words),
    operation: (operation) => operationLabel(language, operation),
  };
}
