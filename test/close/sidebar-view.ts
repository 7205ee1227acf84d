/**
 * The close sidebar's view as getCloseView answers it, for the sidebar's page tests: Alpha and
 * Beta, May 2024, four eyes off, a CSV of `columns`, no journal yet; `more` over it.
 */
export const closeView = (
  language: "en" | "es",
  { columns = ["voucher"], ...more }: { columns?: string[] } & Record<string, unknown> = {},
) => ({
  language,
  companies: [
    { key: "c0", name: "Alpha" },
    { key: "c1", name: "Beta" },
  ],
  month: "2024-05",
  pattern: "{yyyy}{mm}{nnn}",
  fourEyes: false,
  fourEyesNote: "off",
  csv: {
    layout: "lines",
    dateFormat: "YYYY-MM-DD",
    decimal: ".",
    separator: ",",
    columns,
    header: true,
  },
  journal: null,
  approval: "",
  vouchers: [],
  ...more,
});
