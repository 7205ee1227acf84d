/** MailApp: the failure e-mail of a scheduled refresh (add-ons get no automatic one). */

/**
 * Sends a plain-text e-mail to `to`. Returns false, sending nothing, when there is no address
 * (consumer accounts may not reveal it) or the day's e-mail quota is used up.
 */
export function sendPlainMail(to: string, subject: string, body: string): boolean {
  if (!to) return false;
  if (MailApp.getRemainingDailyQuota() <= 0) return false;
  MailApp.sendEmail(to, subject, body);
  return true;
}
