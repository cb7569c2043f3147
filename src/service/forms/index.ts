/**
 * v2 forms (spec 4.1): the forms a company's operator imports (a folder with form.json and its
 * templates), their reads, and submit, which fills the templates and creates a case under the
 * state rules of spec 3. CPR numbers given on submit are stored only encrypted (CprCipher).
 * docs/forms.md describes the folder format, the routes and the rules.
 */
export { CprCipher, CprDecryptError, CPR_FORMAT_V1 } from './cpr-cipher.js';
export { normalizeCpr } from './cpr-number.js';
