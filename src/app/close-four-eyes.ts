/**
 * The close's four eyes, a setting of the document (`close.fourEyes` in document properties,
 * with the close's other settings): when on, the person who approved the journal may not mark
 * it. The marking reads the setting, never what a sidebar sends with a build.
 *
 * Who may change it: any editor who can open the sidebar and whom Google names (an unknown
 * address cannot be written in the Audit sheet, so it is refused). A change is never silent:
 * it voids the journal's current approval (a journal approved under one rule is not marked
 * under another), it is written in the Audit sheet (who, when, from what to what), and the
 * sidebar shows who made the last change and when.
 */
import { ownMember } from "../api/arguments";
import { runtime } from "../gas/runtime";
import { translate } from "../i18n";
import { saveText } from "../refresh/stored-text";
import {
  CLOSE_APPROVAL_KEY,
  CLOSE_FOUR_EYES_CHANGED_KEY,
  CLOSE_FOUR_EYES_KEY,
  closeNow,
  closeUser,
  fourEyesLine,
  storedApproval,
  withCloseLock,
} from "./close";
import { currentLanguage, entry } from "./entry";
import { sidebarAuditLog } from "./sidebar-audit";

export interface FourEyesResult {
  fourEyes: boolean;
  /** What happened, and who changed the setting last. */
  message: string;
  /** The approval's line now ("The journal is not approved." once a change voided it). */
  approval: string;
}

/** Writes the change in the Audit sheet: who, when, the setting's old and new value. */
function auditChange(on: boolean, voided: boolean): void {
  const language = currentLanguage();
  const log = sidebarAuditLog(language);
  log
    .begin({
      action: translate(language, on ? "close.fourEyes.audit.on" : "close.fourEyes.audit.off"),
      method: "",
      endpoint: "",
      target: CLOSE_FOUR_EYES_KEY,
    })
    .complete({
      outcome: "ok",
      message: translate(language, voided ? "close.fourEyes.audit.voided" : "close.fourEyes.audit.none"),
    });
  log.flush();
}

/** Sidebar: turns four eyes on or off (`{on: boolean}`); the approval is voided, the change audited. */
export function closeSetFourEyes(input: unknown): FourEyesResult {
  return entry("sidebar", () => {
    const language = currentLanguage();
    const on = ownMember(input, "on");
    if (typeof on !== "boolean") throw new Error(translate(language, "close.fourEyes.error.input"));
    const who = closeUser();
    if (who === "") throw new Error(translate(language, "close.fourEyes.error.unknownUser"));
    return withCloseLock(language, () => {
      const props = runtime().documentProperties();
      const was = props.getProperty(CLOSE_FOUR_EYES_KEY) === "true";
      if (was === on) {
        return {
          fourEyes: on,
          message: fourEyesLine(language),
          approval: translate(language, "close.fourEyes.unchanged"),
        };
      }
      const voided = storedApproval() !== null;
      props.setProperty(CLOSE_FOUR_EYES_KEY, String(on));
      props.setProperty(CLOSE_FOUR_EYES_CHANGED_KEY, JSON.stringify({ by: who, at: closeNow() }));
      saveText(props, CLOSE_APPROVAL_KEY, "");
      auditChange(on, voided);
      return {
        fourEyes: on,
        message: fourEyesLine(language),
        approval: translate(language, voided ? "close.fourEyes.voided" : "close.notApproved"),
      };
    });
  });
}
