/** Connection sidebar: base URL, access token, administrator id, test connection. */

export function showConnectionSidebar(): void {
  SpreadsheetApp.getUi().showSidebar(
    HtmlService.createHtmlOutputFromFile("connection").setTitle("Connection"),
  );
}

export function getConnectionSettings(): unknown {
  throw new Error("getConnectionSettings: not built yet");
}

export function saveConnectionSettings(_input: unknown): unknown {
  throw new Error("saveConnectionSettings: not built yet");
}

export function testConnection(): unknown {
  throw new Error("testConnection: not built yet");
}
