/** The settings model and its store: what other areas import. */
export * from "./allowlist";
export * from "./bindings";
export * from "./companies";
export * from "./connection-test";
export * from "./model";
export * from "./sheet-names";
export * from "./store";
export * from "./words";
