/**
 * CPR numbers (Danish personal identity numbers) as the service keeps them: checked for their
 * form, and stored only encrypted (AES-256-GCM, CprCipher), never returned or logged in plain
 * text. Its own folder, below forms and cases alike: form submit takes the number, the case
 * writer stores it. docs/forms.md#cpr-numbers describes the format and the key.
 */
export { CprCipher, CprDecryptError, CPR_FORMAT_V1 } from './cpr-cipher.js';
export { normalizeCpr } from './cpr-number.js';
export { CprKeyMissingError } from './cpr-key-missing.js';
export { recipientCprs, type RecipientCprs } from './recipient-cprs.js';
