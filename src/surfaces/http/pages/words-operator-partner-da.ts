import type { Words } from './words-en.js';

/** The words of the operator's partner section, in Danish: the same keys as words-operator-partner-en.ts. */
export const OPERATOR_PARTNER_DA: Words['operatorPartner'] = {
  heading: 'Partner og kreditter',
  intro:
    'Kun operatøren ser og ændrer dette, ikke virksomheden. Rabat og kickback gælder, mens den er aktiv partner, for køb fra nu af.',
  isPartner: 'Aktiv partner',
  code: 'Henvisningskode',
  noCode: 'Ingen: linket nævner virksomhedens id',
  kickback: 'Kickback',
  discount: 'Rabat til dens kunder',
  webhook: 'Partner-webhook',
  webhookAllowed: 'Tilladt',
  webhookNotAllowed: 'Ikke tilladt',
  credits: 'Kreditter',
  creditsLine: '{total} ({paid} købt, {free} givet)',
  owed: 'Skyldig kickback',
  owedLine: '{owed} kr (optjent {earned} kr, udbetalt {paidOut} kr)',
  formHeading: 'Ændr partneropsætningen',
  isPartnerLabel: 'En aktiv partner',
  isPartnerHint: 'Dens kunder får dens rabat, og den optjener sin kickback, mens dette er valgt.',
  codeLabel: 'Henvisningskode',
  codeHint: '2 til 40 bogstaver, cifre, - eller _. Lad feltet stå tomt for ingen.',
  kickbackLabel: 'Kickback som brøk',
  kickbackHint: 'For eksempel 0.15 for 15 % af det, dens kunder betaler uden moms.',
  discountLabel: 'Rabat som brøk',
  discountHint: 'For eksempel 0.10 for 10 % af listeprisen.',
  webhookLabel: 'Må modtage partner.customer.registered',
  webhookHint: 'Den nye kundes API-nøgle sendes til dens webhook, når kunden giver samtykke.',
  save: 'Gem partneropsætningen',
  saved: 'Partneropsætningen er gemt.',
  badFraction: 'Skriv en brøk fra 0 til 1 med højst seks decimaler, for eksempel 0.15.',
  badCode:
    'En kode er 2 til 40 bogstaver, cifre, - eller _, og begynder med et bogstav eller et ciffer.',
  codeTaken: 'En anden virksomhed har denne kode (store og små bogstaver er lige).',
  codeIsCompany: 'Dette er en anden virksomheds id: et link ville nævne begge.',
};
