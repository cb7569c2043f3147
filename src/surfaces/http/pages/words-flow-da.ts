import type { Words } from './words-en.js';

/** The words of the web-flow answer page, in Danish: the same keys as words-flow-en.ts. */
export const FLOW_DA: Words['flow'] = {
  from: 'Fra {name}, {company}',
  progress: '{answered} af {total} spørgsmål besvaret',
  saved: 'Gemt. {answered} af {total} spørgsmål besvaret: du kan gå fra siden og komme tilbage.',
  intro: 'Svar på det, du kan. Gem gemmer dine svar; Send svar sender dem, når du er færdig.',
  required: 'skal besvares',
  yes: 'Ja',
  no: 'Nej',
  choose: 'Vælg …',
  save: 'Gem',
  send: 'Send svar',
  numberHint: 'Et tal, fx 1.200,50',
  dateHint: 'En dato',
  cprHint: '10 cifre: DDMMÅÅ-XXXX',
  cprSaved: 'Et CPR-nummer er gemt. Det vises ikke; lad feltet stå tomt for at beholde det.',
  phoneHint: 'Cifre, gerne med + og mellemrum',
  thanksTitle: 'Tak',
  thanks: 'Dine svar er sendt til {name}. Du kan lukke siden.',
  thanksSent: 'Dine svar er sendt. Du kan lukke siden.',
  problem: {
    text: 'Svaret er for langt.',
    number: 'Skriv et tal, fx 1.200,50.',
    date: 'Skriv en dato, der findes.',
    boolean: 'Vælg ja eller nej.',
    choice: 'Vælg en af mulighederne.',
    email: 'Skriv en e-mailadresse, fx navn@example.com.',
    phone: 'Skriv et telefonnummer på 6 til 15 cifre.',
    cpr: 'Skriv et CPR-nummer på 10 cifre, hvis første seks er en dato (DDMMÅÅ).',
    required: 'Besvar spørgsmålet, før du sender.',
  },
  problemOf: '{question}: {problem}',
  cprUnavailable:
    'Tjenesten kan ikke tage imod CPR-numre lige nu. Gem de andre svar, og prøv igen senere.',
};
