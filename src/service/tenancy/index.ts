/**
 * The service's tenancy: who a request acts for. The company-id rule itself lives in
 * base/tenancy, because storage and the queue (below the service) check it too; the service
 * takes it from here.
 */
export {
  COMPANY_ID,
  COMPANY_ID_MAX_CHARS,
  COMPANY_ID_RULE,
  companyIdProblem,
  isCompanyId,
  type CompanyId,
} from '../../base/tenancy/index.js';
