import { COMPANY_ID_RULE, isCompanyId } from '../../service/tenancy/index.js';
import { UsageError } from './exit-codes.js';

/**
 * `--company`, checked before anything else is looked for (a typo is named before a missing
 * Redis), with the message `docpipe keys create --company` gives. Its own file, apart from
 * io.ts, so that the records commands load no template code just to check a flag.
 */
export function companyFlag(value: string | undefined): string | undefined {
  if (value === undefined || isCompanyId(value)) return value;
  throw new UsageError(`--company ${COMPANY_ID_RULE} (got ${JSON.stringify(value)})`);
}
