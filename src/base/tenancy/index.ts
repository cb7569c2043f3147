export {
  COMPANY_ID,
  COMPANY_ID_MAX_CHARS,
  COMPANY_ID_RULE,
  companyIdProblem,
  isCompanyId,
  type CompanyId,
} from './company-id.js';
