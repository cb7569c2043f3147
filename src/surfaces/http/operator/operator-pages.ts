import type { DashboardPages } from '../dashboard/dashboard-pages.js';

/** Every group of operator pages, one line each. */
export const OPERATOR_PAGES: readonly DashboardPages[] = [];
