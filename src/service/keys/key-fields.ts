import type { FailureDetail } from '../../base/errors/index.js';
import { COMPANY_ID_RULE, isCompanyId } from '../tenancy/index.js';

const NAME_MAX = 200;
/** RFC 5321's longest path: 64 for the local part, 255 for the domain, and the @. */
const EMAIL_MAX = 320;

/**
 * What is wrong with a new key's company, user, name and lifetime, every problem at once. The
 * name may be left out (the store names the key after its user).
 */
export function newKeyProblems(input: {
  company: unknown;
  user: unknown;
  name?: unknown;
  expiresInMs?: unknown;
}): FailureDetail[] {
  const problems: FailureDetail[] = [];
  if (!isCompanyId(input.company))
    problems.push({
      field: 'company',
      message: COMPANY_ID_RULE,
    });
  const user = input.user;
  if (typeof user !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(user) || user.length > EMAIL_MAX)
    problems.push({
      field: 'user',
      message: `must be the e-mail of a user of the company (at most ${EMAIL_MAX} characters)`,
    });
  const name = input.name;
  if (name === undefined) {
    // Named after its user.
  } else if (typeof name !== 'string' || name.trim() === '')
    problems.push({ field: 'name', message: 'must be a non-empty text' });
  else if (name.length > NAME_MAX)
    problems.push({ field: 'name', message: `must be at most ${NAME_MAX} characters` });
  // eslint-disable-next-line no-control-regex
  else if (/[\u0000-\u001f\u007f]/.test(name))
    problems.push({
      field: 'name',
      message: 'must not hold control characters (line breaks, tabs)',
    });
  const ms = input.expiresInMs;
  if (ms !== undefined && !(typeof ms === 'number' && Number.isSafeInteger(ms) && ms > 0))
    problems.push({ field: 'expiresInMs', message: 'must be a positive whole number of ms' });
  return problems;
}
