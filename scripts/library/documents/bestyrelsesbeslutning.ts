import { Blocks } from '../kit/blocks.js';
import type { Look } from '../kit/look.js';
import { signatureRows } from '../kit/signatures.js';
import { wordDocument } from '../kit/word-document.js';
import { field, tagInputs } from '../fields.js';
import type { LibraryDocument } from '../library-document.js';

const look: Look = {
  lang: 'da',
  wordLanguage: 'da-DK',
  body: 'Calibri',
  headings: 'Cambria',
  size: 11,
  accent: '203864',
  clauses: '%1.',
  justify: true,
  delimiters: ['{', '}'],
};

const KRONER = '#,##0';

const fields = {
  company_name: field.text('the company'),
  company_cvr: field.text('the company’s CVR number'),
  company_address: field.text('the company’s registered address'),
  resolution_date: field.date('D. MMMM YYYY', 'the date of the resolution'),
  board_members: field.list('every member of the board, each signing', {
    name: field.text('a board member’s name'),
    role: field.text('formand, næstformand or bestyrelsesmedlem'),
  }),
  fiscal_year: field.number('0', 'the financial year of the annual report'),
  annual_result: field.number(KRONER, 'profit after tax in DKK (negative for a loss)'),
  dividend_proposal: field.flag('whether the board proposes a dividend'),
  dividend_amount: field.number(KRONER, 'the proposed dividend in DKK'),
  grant_procura: field.flag('whether the board grants procura'),
  procura_holder: field.text('who is granted procura'),
  capital_increase: field.flag('whether the board increases the share capital'),
  increase_nominal: field.number(KRONER, 'nominal amount of the increase in DKK'),
  subscription_price: field.number('0.00', 'subscription price (kurs), per 100 DKK nominal'),
  subscriber_name: field.text('who subscribes for the new shares'),
};

function document() {
  const b = new Blocks(look);
  return wordDocument({
    look,
    title: 'Skriftlig bestyrelsesbeslutning',
    subject: 'Bestyrelsesbeslutning',
    header: { left: '{company_name}', right: 'Bestyrelsesbeslutning' },
    footer: 'CVR-nr. {company_cvr}',
    body: [
      b.title('Skriftlig bestyrelsesbeslutning'),
      b.subtitle('{company_name}, CVR-nr. {company_cvr}, {company_address}'),
      b.p(
        'Bestyrelsen i {company_name} (»Selskabet«) har den **{resolution_date}** ved skriftlig behandling og i enighed truffet de beslutninger, der fremgår nedenfor. Samtlige medlemmer af bestyrelsen har deltaget i behandlingen og er enige om, at beslutningerne træffes uden afholdelse af møde, jf. bestyrelsens forretningsorden.',
      ),
      b.h1('Bestyrelsen'),
      b.p('Bestyrelsen består af:', { keepNext: true }),
      b.loop('board_members', b.bullets('{name}, {role}')),
      b.h1('Årsrapport for {fiscal_year}'),
      b.clause(
        'Bestyrelsen har gennemgået udkastet til årsrapport for regnskabsåret {fiscal_year} med revisors påtegning og revisionsprotokollat. Årsrapporten viser et resultat efter skat på {annual_result} kr.',
      ),
      b.clause(
        'Bestyrelsen godkender årsrapporten og indstiller den til generalforsamlingens godkendelse.',
      ),
      b.clause(
        '{#dividend_proposal}Bestyrelsen foreslår generalforsamlingen, at der udbetales udbytte på i alt {dividend_amount} kr., og at det resterende resultat overføres til næste år.{/dividend_proposal}{^dividend_proposal}Bestyrelsen foreslår generalforsamlingen, at årets resultat overføres til næste år, og at der ikke udbetales udbytte.{/dividend_proposal}',
      ),
      b.when(
        'grant_procura',
        b.h1('Prokura'),
        b.clause(
          'Bestyrelsen meddeler {procura_holder} prokura. Prokuristen kan forpligte Selskabet i alle forhold, der hører under Selskabets drift, men kan ikke afhænde eller pantsætte fast ejendom.',
        ),
        b.clause('Prokuraen gælder, indtil bestyrelsen tilbagekalder den.'),
      ),
      b.when(
        'capital_increase',
        b.h1('Kapitalforhøjelse'),
        b.clause(
          'Bestyrelsen udnytter sin bemyndigelse i vedtægternes § 4 og forhøjer Selskabets kapital med nominelt {increase_nominal} kr. ved kontant indskud til kurs {subscription_price}.',
        ),
        b.clause(
          'De nye kapitalandele tegnes af {subscriber_name} uden fortegningsret for Selskabets eksisterende kapitalejere. Tegning og indbetaling sker senest fire uger efter denne beslutning.',
        ),
        b.clause(
          'De nye kapitalandele giver ret til udbytte fra registreringen i Erhvervsstyrelsen og har samme rettigheder som de eksisterende. Vedtægterne ændres i overensstemmelse hermed.',
        ),
      ),
      b.h1('Øvrige forhold'),
      b.clause(
        '{^grant_procura}Selskabets tegningsregel og eventuelle prokuraer er uændrede. {/grant_procura}{^capital_increase}Bemyndigelsen i vedtægternes § 4 til at forhøje kapitalen er fortsat uudnyttet. {/capital_increase}Bestyrelsen bemyndiger direktionen til at anmelde de trufne beslutninger til Erhvervsstyrelsen og til at foretage de ændringer, som Erhvervsstyrelsen måtte kræve som betingelse for registrering.',
      ),
      b.h2('Underskrifter'),
      b.p('Beslutningerne er truffet af samtlige medlemmer af bestyrelsen:', { keepNext: true }),
      signatureRows(look, 'board_members', '{name}', '{role}'),
    ],
  });
}

const growth = {
  company_name: 'Scandic Vindteknik A/S',
  company_cvr: '35 66 12 09',
  company_address: 'Industrivej 14, 7400 Herning',
  resolution_date: '2025-03-27',
  board_members: [
    { name: 'Karen Vestergaard', role: 'formand' },
    { name: 'Mikkel Brandt', role: 'næstformand' },
    { name: 'Aisha Rahimi', role: 'bestyrelsesmedlem' },
  ],
  fiscal_year: 2024,
  annual_result: 4812300,
  dividend_proposal: true,
  dividend_amount: 1500000,
  grant_procura: true,
  procura_holder: 'økonomichef Birgitte Lauridsen',
  capital_increase: true,
  increase_nominal: 250000,
  subscription_price: 412.5,
  subscriber_name: 'Vækstfonden Midt K/S',
};

const annual = {
  company_name: 'Bogtrykkeriet i Ribe ApS',
  company_cvr: '27 40 19 83',
  company_address: 'Sortebrødregade 3, 6760 Ribe',
  resolution_date: '2025-05-12',
  board_members: [
    { name: 'Poul Erik Thomsen', role: 'formand' },
    { name: 'Lene Damgaard', role: 'bestyrelsesmedlem' },
  ],
  fiscal_year: 2024,
  annual_result: -186450,
  dividend_proposal: false,
  grant_procura: false,
  capital_increase: false,
};

export const bestyrelsesbeslutning: LibraryDocument = {
  id: 'bestyrelsesbeslutning',
  meta: {
    name: 'Skriftlig bestyrelsesbeslutning',
    description:
      'Written board resolution (Danish): the annual report and dividend proposal, optional procura and capital increase; the board members are a list, each signing.',
    locale: 'da',
    timeZone: 'Europe/Copenhagen',
    signers: [{ role: 'each board member, in list order', name: 'name', list: 'board_members' }],
    fields,
  },
  document,
  fixtures: [
    {
      name: 'kapitalforhoejelse',
      tags: tagInputs(fields, growth),
      expected: [
        'Scandic Vindteknik A/S, CVR-nr. 35 66 12 09, Industrivej 14, 7400 Herning',
        'har den 27. marts 2025 ved skriftlig behandling',
        'Karen Vestergaard, formand',
        'Mikkel Brandt, næstformand',
        'Aisha Rahimi, bestyrelsesmedlem',
        'Årsrapport for 2024',
        'resultat efter skat på 4.812.300 kr.',
        'udbetales udbytte på i alt 1.500.000 kr.',
        'Bestyrelsen meddeler økonomichef Birgitte Lauridsen prokura.',
        'forhøjer Selskabets kapital med nominelt 250.000 kr. ved kontant indskud til kurs 412,50.',
        'tegnes af Vækstfonden Midt K/S',
        'Bestyrelsen bemyndiger direktionen til at anmelde',
      ],
    },
    {
      name: 'aarsrapport',
      tags: tagInputs(fields, annual),
      expected: [
        'Bogtrykkeriet i Ribe ApS',
        'har den 12. maj 2025 ved skriftlig behandling',
        'Poul Erik Thomsen, formand',
        'Lene Damgaard, bestyrelsesmedlem',
        'resultat efter skat på -186.450 kr.',
        'at årets resultat overføres til næste år, og at der ikke udbetales udbytte.',
        'Selskabets tegningsregel og eventuelle prokuraer er uændrede.',
        'Bemyndigelsen i vedtægternes § 4 til at forhøje kapitalen er fortsat uudnyttet.',
        'CVR-nr. 27 40 19 83',
      ],
    },
  ],
};
