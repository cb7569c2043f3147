import type { DashboardPages } from '../dashboard/dashboard-pages.js';
import { companyOperatorPages } from './company-routes.js';

/** Every group of operator pages, one line each. */
export const OPERATOR_PAGES: readonly DashboardPages[] = [companyOperatorPages];
