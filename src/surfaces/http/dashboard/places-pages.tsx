import type { DashboardPages } from '../pages/index.js';

/** The pages of placing signatures on a draft's pages, /dashboard/cases/:id/places (issue 34). */
export const placesPages: DashboardPages = () => undefined;
