// The shared place shape, re-exported for the sealing job's convenience.
export type { SignaturePlace } from '../anchors/index.js';
export { MIN_STAMP_TEXT_PT, stampPlaces, type Stamp } from './stamp-places.js';
export {
  appendAuditTrail,
  type AuditDocument,
  type AuditMethod,
  type AuditAction,
  type AuditRecipient,
  type AuditTrail,
} from './audit-trail.js';
export { AUDIT_WORDING, type AuditLanguage, type AuditWording } from './audit-wording.js';
export { appendSignaturePage } from './signature-page.js';
export { STAMP_FONT_DIR } from './stamp-fonts.js';
