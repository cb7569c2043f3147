import type { DashboardPages } from '../pages/index.js';

/** The pages of the New case form, /dashboard/cases/new (issue 34). */
export const newCasePages: DashboardPages = () => undefined;
