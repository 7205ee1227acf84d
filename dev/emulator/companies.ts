/**
 * Pre-stores several companies for a user, as if they had added them in Settings and saved
 * their token for each: the first company's connection as storeConnection stores it, then each
 * other company added to the document's list (the first named in the same change) and this
 * user's token and IdAdmin saved for it, all through the add-on's own settings store.
 */
import { companyKeyFromUuid } from "../../src/settings/companies";
import { createSettingsStore } from "../../src/settings/store";
import type { Emulator } from "./index";
import { FakeProperties } from "./properties";
import { type Connection, storeConnection } from "./settings";

export interface CompanyConnection extends Connection {
  name: string;
}

/**
 * Stores `companies` (the first is c0) for `user`; returns their keys, in order. Keys are made
 * from the position, so a reset stores the same ones. Throws naming the rule that failed.
 */
export function storeCompanies(
  em: Emulator,
  companies: readonly CompanyConnection[],
  user: string = em.defaultUser,
): string[] {
  const [first, ...rest] = companies;
  if (!first) throw new Error("storeCompanies: no company given");
  storeConnection(em, first, user);
  const store = createSettingsStore({
    document: new FakeProperties(em.documentPropertiesData),
    user: new FakeProperties(em.userPropertiesOf(user)),
  });
  const keys = [store.companies().entries[0]?.key ?? "c0"];
  rest.forEach((company, i) => {
    const added = store.changeCompanies(
      {
        kind: "add",
        rev: store.companies().rev,
        name: company.name,
        apiUrl: company.apiUrl,
        ...(i === 0 ? { firstName: first.name } : {}),
      },
      "en",
      {
        newKey: () => companyKeyFromUuid(`${(i + 1).toString(16).padStart(8, "0")}beef`),
        now: em.now().getTime(),
      },
    );
    if (!added.ok)
      throw new Error(`Could not add ${company.name}: ${added.issues.map((x) => x.message).join("; ")}`);
    const saved = store.saveCompanyToken(added.key, company.token, String(company.adminId), {
      name: company.name,
      apiUrl: company.apiUrl,
    });
    if (!saved.ok)
      throw new Error(
        `Could not store ${company.name}'s token: ${saved.issues.map((x) => x.message).join("; ")}`,
      );
    keys.push(added.key);
  });
  return keys;
}
