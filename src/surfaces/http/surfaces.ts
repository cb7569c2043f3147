import { casesSurface } from './cases/index.js';
import { casesV2Surface } from './cases-v2/index.js';
import type { HttpSurface } from './common/surface.js';
import { convertSurface } from './convert/index.js';
import { documentsSurface } from './documents/index.js';
import { downloadsSurface } from './downloads/index.js';
import { filesSurface } from './files/index.js';
import { formsSurface } from './forms/index.js';
import { operationsSurface } from './operations/index.js';
import { pagesSurface } from './pages/index.js';
import { accountSurface } from './account/index.js';
import { dashboardSurface } from './dashboard/index.js';
import { operatorSurface } from './operator/index.js';
import { signingSurface } from './signing/index.js';
import { partnersSurface } from './partners/index.js';
import { webflowsSurface } from './webflows/index.js';
import { flowSurface } from './flow/index.js';

/**
 * Every surface the server serves, in registration order (the OpenAPI document lists them so).
 * A new surface (cases, forms, signing pages) is a folder beside these and one line here.
 */
export const SURFACES: readonly HttpSurface[] = [
  convertSurface,
  filesSurface,
  documentsSurface,
  casesSurface,
  casesV2Surface,
  webflowsSurface,
  formsSurface,
  downloadsSurface,
  operationsSurface,
  signingSurface,
  flowSurface,
  partnersSurface,
  pagesSurface,
  accountSurface,
  dashboardSurface,
  operatorSurface,
];
