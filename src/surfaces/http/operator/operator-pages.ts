import type { DashboardPages } from '../pages/index.js';
import { companyOperatorPages } from './company-routes.js';

/** Every group of operator pages, one line each. */
export const OPERATOR_PAGES: readonly DashboardPages[] = [companyOperatorPages];
