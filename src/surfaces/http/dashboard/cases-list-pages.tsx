import type { DashboardPages } from '../pages/index.js';

/** The pages of the case list, /dashboard/cases (tabs by state, filters, search, paged by cursor) (issue 34). */
export const casesListPages: DashboardPages = () => undefined;
