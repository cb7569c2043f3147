/**
 * A company id: the tenant every key, upload, job and (next) signing case belongs to. It becomes
 * part of paths (`/v3/company/{company}/...`), Redis keys (the fair scheduler's lines), storage
 * keys and log lines, so it is plain enough never to need escaping: 1 to 128 letters, digits,
 * `.`, `_` or `-`, starting with a letter or digit. The one rule: keys, storage, the queue and
 * HTTP all check it here. It sits in base, not in the service's tenancy, because storage and the
 * queue sit below the service and must check it too (docs/development.md, "Layers").
 */
export type CompanyId = string;

/** The longest company id, in characters (each is one byte: the pattern allows ASCII only). */
export const COMPANY_ID_MAX_CHARS = 128;

export const COMPANY_ID = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,${COMPANY_ID_MAX_CHARS - 1}}$`);

/** What {@link COMPANY_ID} asks, as a message says it after the field's name. */
export const COMPANY_ID_RULE = `must be 1 to ${COMPANY_ID_MAX_CHARS} letters, digits, ".", "_" or "-", starting with a letter or digit`;

export function isCompanyId(value: unknown): value is CompanyId {
  return typeof value === 'string' && COMPANY_ID.test(value);
}

/** Why `value` is no company id (`company id must be ... (got "a b")`), or undefined when it is one. */
export function companyIdProblem(value: unknown): string | undefined {
  return isCompanyId(value)
    ? undefined
    : `company id ${COMPANY_ID_RULE} (got ${JSON.stringify(value)})`;
}
