/** Strings shared by every part of the add-on. */
export const common = {
  en: {
    "menu.connection": "Connection…",
    "sidebar.connection.title": "Connection",
  },
  es: {
    "menu.connection": "Conexión…",
    "sidebar.connection.title": "Conexión",
  },
} as const;
