import type { DashboardPages } from '../pages/index.js';

/** The pages of a case's page, /dashboard/cases/:id, its actions and its live updates (issue 34). */
export const casePages: DashboardPages = () => undefined;
