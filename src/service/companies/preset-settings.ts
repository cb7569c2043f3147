import { languageOf } from './record-fields.js';
import type { RecordProblem } from './record-errors.js';

/**
 * The v3 case `settings` (spec 2.2), as a preset holds them: the members spec 2.2 lists with the
 * types and ranges it gives, and no others. A member v3 does not accept (`deletion`,
 * `allowRecipientsViewOthers`, v2's `lang`) is refused with its path, as POST /v3/api/cases
 * refuses it (`unknown field`): a preset that case creation would refuse is refused when it is
 * added, not on every case that names it. What needs the case or the service (a logo's bytes,
 * a scheme this installation serves) is checked when a case uses the preset.
 */

/** spec 2.1's standard signing schemes in v3, and `draw`, which needs nothing. */
export const SIGNING_SCHEMAS = [
  'urn:grn:authn:dk:mitid:low',
  'urn:grn:authn:dk:mitid:substantial',
  'urn:grn:authn:dk:mitid:business',
  'urn:grn:authn:se:bankid',
  'urn:grn:authn:de:personalausweis',
  'draw',
] as const;

/** A leaf's check: the problem with a value, said after its path, or undefined. */
type LeafCheck = (value: unknown) => string | undefined;

/** An object whose members are each a leaf or another object. */
interface ObjectShape {
  [member: string]: LeafCheck | ObjectShape;
}

const boolean: LeafCheck = (v) => (typeof v === 'boolean' ? undefined : 'must be true or false');

const text: LeafCheck = (v) => (typeof v === 'string' ? undefined : 'must be a string');

const nonEmptyText: LeafCheck = (v) =>
  typeof v === 'string' && v !== '' ? undefined : 'must be a non-empty string';

function integer(min: number, max = Number.MAX_SAFE_INTEGER): LeafCheck {
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  return (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max
      ? undefined
      : `must be an integer ${range} (got ${JSON.stringify(v)})`;
}

const language: LeafCheck = (v) => {
  if (typeof v !== 'string') return 'must be a string';
  const found = languageOf(v);
  return 'problem' in found ? found.problem : undefined;
};

const signingSchemas: LeafCheck = (v) => {
  if (!Array.isArray(v)) return 'must be an array of signing schemes';
  const unknown = v.filter((s) => !(SIGNING_SCHEMAS as readonly unknown[]).includes(s));
  return unknown.length === 0
    ? undefined
    : `holds unknown signing schemes ${unknown.map((s) => JSON.stringify(s)).join(', ')} (known: ${SIGNING_SCHEMAS.join(', ')})`;
};

const returnPath: LeafCheck = (v) =>
  typeof v === 'string' && v.startsWith('/')
    ? undefined
    : `must be a path beginning with "/" (got ${JSON.stringify(v)})`;

/** The members of spec 2.2's `settings.*` rows. */
export const CASE_SETTINGS: ObjectShape = {
  autoSend: boolean,
  language,
  expiresInDays: integer(1),
  reminders: {
    send: boolean,
    amount: integer(1, 20),
    daysBetween: integer(1, 365),
    autoSend: boolean,
  },
  template: integer(0),
  message: text,
  signingSchemas,
  logo: nonEmptyText,
  integrations: { microsoft: { returnPath } },
};

/** Why a member is not there, for the members people bring from v2. */
const NOT_IN_V3: Record<string, string> = {
  deletion: 'v3 does not accept settings.deletion: the company defaults apply',
  allowRecipientsViewOthers:
    'v3 does not accept settings.allowRecipientsViewOthers: the company defaults apply',
  lang: 'v2\'s "lang" is "language" in v3',
};

/** Every problem of `settings` at once, each with its path below `at` (`settings.reminders.x`). */
export function presetSettingsProblems(settings: unknown, at = 'settings'): RecordProblem[] {
  const problems: RecordProblem[] = [];
  checkObject(CASE_SETTINGS, settings, at, problems, true);
  return problems;
}

function checkObject(
  shape: ObjectShape,
  value: unknown,
  path: string,
  problems: RecordProblem[],
  top: boolean,
): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push({ path, message: 'must be an object' });
    return;
  }
  for (const [member, child] of Object.entries(value)) {
    const at = `${path}.${member}`;
    const check = Object.hasOwn(shape, member) ? shape[member] : undefined;
    if (check === undefined) {
      const why = top ? NOT_IN_V3[member] : undefined;
      problems.push({ path: at, message: why ? `unknown field (${why})` : 'unknown field' });
    } else if (typeof check === 'function') {
      const problem = check(child);
      if (problem !== undefined) problems.push({ path: at, message: problem });
    } else checkObject(check, child, at, problems, false);
  }
}
