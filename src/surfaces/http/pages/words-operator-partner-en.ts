/**
 * The words of the operator's partner section on a company's page (issue 35), in English: the
 * `operatorPartner` section of words-en.ts, in a file of its own so that the section and its
 * words change together. words-operator-partner-da.ts has the same keys (its type is this one's).
 */
export const OPERATOR_PARTNER_EN = {
  heading: 'Partner and credits',
  intro:
    'Only the operator sees and sets this: the company does not. A discount and a kickback apply while it is an active partner, to purchases from now on.',
  isPartner: 'Active partner',
  code: 'Referral code',
  noCode: 'None: the link names the company id',
  kickback: 'Kickback',
  discount: 'Discount for its customers',
  webhook: 'Partner webhook',
  webhookAllowed: 'Allowed',
  webhookNotAllowed: 'Not allowed',
  credits: 'Credits',
  creditsLine: '{total} ({paid} bought, {free} given)',
  owed: 'Kickbacks owed',
  owedLine: '{owed} kr (earned {earned} kr, paid out {paidOut} kr)',
  formHeading: 'Change the partner configuration',
  isPartnerLabel: 'An active partner',
  isPartnerHint: 'Its customers get its discount and it earns its kickback while this is ticked.',
  codeLabel: 'Referral code',
  codeHint: '2 to 40 letters, digits, - or _. Leave empty for none.',
  kickbackLabel: 'Kickback, as a fraction',
  kickbackHint: 'Such as 0.15 for 15 % of what its customers pay without VAT.',
  discountLabel: 'Discount, as a fraction',
  discountHint: 'Such as 0.10 for 10 % off the list price.',
  webhookLabel: 'May receive partner.customer.registered',
  webhookHint: "The new customer's API key is sent to its webhook when the customer consents.",
  save: 'Save partner configuration',
  saved: 'The partner configuration is saved.',
  badFraction: 'Write a fraction from 0 to 1 with at most six decimals, such as 0.15.',
  badCode: 'A code is 2 to 40 letters, digits, - or _, beginning with a letter or a digit.',
  codeTaken: 'Another company has this code (the case does not matter).',
  codeIsCompany: 'This is the id of another company: a link would name both.',
} as const;
