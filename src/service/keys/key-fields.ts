import type { FailureDetail } from '../../base/errors/index.js';
import { COMPANY_ID_RULE, isCompanyId } from '../tenancy/index.js';

const NAME_MAX = 200;

/** What is wrong with a new key's company, name and lifetime, every problem at once. */
export function newKeyProblems(input: {
  company: unknown;
  name: unknown;
  expiresInMs?: unknown;
}): FailureDetail[] {
  const problems: FailureDetail[] = [];
  if (!isCompanyId(input.company))
    problems.push({
      field: 'company',
      message: COMPANY_ID_RULE,
    });
  if (typeof input.name !== 'string' || input.name.trim() === '')
    problems.push({ field: 'name', message: 'must be a non-empty text' });
  else if (input.name.length > NAME_MAX)
    problems.push({ field: 'name', message: `must be at most ${NAME_MAX} characters` });
  // eslint-disable-next-line no-control-regex
  else if (/[\u0000-\u001f\u007f]/.test(input.name))
    problems.push({
      field: 'name',
      message: 'must not hold control characters (line breaks, tabs)',
    });
  const ms = input.expiresInMs;
  if (ms !== undefined && !(typeof ms === 'number' && Number.isSafeInteger(ms) && ms > 0))
    problems.push({ field: 'expiresInMs', message: 'must be a positive whole number of ms' });
  return problems;
}
