/**
 * Messages to people: composing one message (invitation, reminder, signed copy, denial notice) in
 * the case's language, and sending it over one channel (e-mail over SMTP or into .eml files, SMS
 * through an HTTP gateway, e-Boks behind the same interface), answering what happened as
 * `{ok, error, location}`. Who gets which message and when is the caller's. docs/delivery.md.
 */
export type {
  ChannelName,
  ChannelResult,
  MessageChannel,
  MessageChannels,
  MessageKind,
  OutgoingMessage,
} from './message.js';
export {
  DEFAULT_ATTACH_MAX_BYTES,
  DEFAULT_DELIVERY_TIMEOUT_MS,
  DEFAULT_MAIL_FROM,
  type DeliveryConfig,
  type MailAddress,
} from './delivery-config.js';
export { messageChannels } from './message-channels.js';
export { SMTP_TLS_PARAMETER, smtpTlsOf, type SmtpTls } from './smtp-tls.js';
export { composeEmail, placeholderValues, type ComposedEmail } from './compose-email.js';
export { composeSms } from './compose-sms.js';
export { attachDocuments, emailMessage, messageIdOf } from './email-message.js';
export { emlFileName } from './eml-file-channel.js';
export { EBOKS_NOT_CONFIGURED } from './eboks-channel.js';
export { MAX_SMS_ANSWER_BYTES, SMS_NOT_CONFIGURED, phoneNumber } from './sms-channel.js';
export { headerText } from './plain-text.js';
export { messageLanguage, formatDate } from './message-language.js';
