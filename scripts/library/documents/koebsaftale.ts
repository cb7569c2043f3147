import { Blocks } from '../kit/blocks.js';
import type { Look } from '../kit/look.js';
import { signatureBlocks } from '../kit/signatures.js';
import { factsTable, gridTable } from '../kit/tables.js';
import { wordDocument } from '../kit/word-document.js';
import { field, tagInputs } from '../fields.js';
import type { LibraryDocument } from '../library-document.js';

const look: Look = {
  lang: 'da',
  wordLanguage: 'da-DK',
  body: 'Calibri',
  headings: 'Cambria',
  size: 10.5,
  accent: '385623',
  clauses: '%1.',
  justify: true,
  delimiters: ['{', '}'],
};

const DATE = 'D. MMMM YYYY';
const KRONER = '#,##0.00';

const fields = {
  agreement_no: field.text('the agreement number'),
  agreement_date: field.date(DATE, 'the date of the agreement'),
  seller_name: field.text('the seller'),
  seller_cvr: field.text('the seller’s CVR number'),
  seller_address: field.text('the seller’s address'),
  buyer_name: field.text('the buyer'),
  buyer_cvr: field.text('the buyer’s CVR number'),
  buyer_address: field.text('the buyer’s address'),
  items: field.list('the goods, one table row each', {
    item_no: field.text('the seller’s item number'),
    description: field.text('the goods'),
    quantity: field.number('#,##0', 'how many'),
    unit_price: field.number(KRONER, 'price per unit excluding VAT'),
    amount: field.number(KRONER, 'quantity times unit price, computed by the caller'),
  }),
  subtotal: field.number(KRONER, 'the purchase price excluding VAT'),
  vat_amount: field.number(KRONER, 'VAT at 25 %'),
  total: field.number(KRONER, 'the purchase price including VAT'),
  includes_installation: field.flag('whether the price includes installation'),
  delivery_date: field.date(DATE, 'the agreed delivery day'),
  delivery_address: field.text('where the goods are delivered'),
  has_down_payment: field.flag('whether part of the price is paid on signing'),
  down_payment: field.number(KRONER, 'the down payment including VAT'),
  payment_days: field.number('0', 'days from delivery to payment'),
  retention_of_title: field.flag('whether the seller keeps title until paid (ejendomsforbehold)'),
  warranty_months: field.number('0', 'months of warranty from delivery'),
  signing_city: field.text('where the agreement is signed'),
  seller_signatory_name: field.text('who signs for the seller'),
  seller_signatory_title: field.text('the seller signatory’s title'),
  buyer_signatory_name: field.text('who signs for the buyer'),
  buyer_signatory_title: field.text('the buyer signatory’s title'),
};

function document() {
  const b = new Blocks(look);
  return wordDocument({
    look,
    title: 'Købsaftale',
    subject: 'Køb af løsøre',
    header: { left: '{seller_name}', right: 'Købsaftale nr. {agreement_no}' },
    footer: 'Købsaftale mellem {seller_name} og {buyer_name}',
    body: [
      b.title('Købsaftale'),
      b.subtitle('Aftale nr. {agreement_no} om køb af maskiner og udstyr'),
      b.h1('Parterne'),
      factsTable(look, [
        ['Sælger', ['**{seller_name}**', 'CVR-nr. {seller_cvr}', '{seller_address}']],
        ['Køber', ['**{buyer_name}**', 'CVR-nr. {buyer_cvr}', '{buyer_address}']],
      ]),
      b.h1('Aftalens genstand og pris'),
      b.clause(
        'Sælger sælger, og Køber køber, de varer, der er anført nedenfor (»Varerne«), på de vilkår, der fremgår af denne aftale. Alle beløb er i danske kroner.',
      ),
      gridTable(
        look,
        [
          { heading: 'Varenr.', share: 0.13 },
          { heading: 'Beskrivelse', share: 0.41 },
          { heading: 'Antal', share: 0.1, align: 'right' },
          { heading: 'Stykpris', share: 0.17, align: 'right' },
          { heading: 'Beløb', share: 0.19, align: 'right' },
        ],
        [['{#items}{item_no}', '{description}', '{quantity}', '{unit_price}', '{amount}{/items}']],
        {
          totals: [
            { label: 'Købesum ekskl. moms', value: '{subtotal}' },
            { label: 'Moms 25 %', value: '{vat_amount}' },
            { label: 'Købesum inkl. moms', value: '{total}', bold: true },
          ],
        },
      ),
      b.clause(
        '{#includes_installation}Købesummen omfatter levering, montering og idriftsættelse på leveringsstedet samt instruktion af Købers personale i op til otte timer.{/includes_installation}{^includes_installation}Købesummen omfatter levering på leveringsstedet. Montering og idriftsættelse er ikke omfattet og sker for Købers regning og risiko.{/includes_installation}',
      ),
      b.h1('Levering'),
      b.clause(
        'Varerne leveres den **{delivery_date}** på {delivery_address}. Levering sker DAP leveringsstedet (Incoterms® 2020).',
      ),
      b.clause(
        'Køber skal undersøge Varerne ved leveringen og reklamere skriftligt over synlige mangler senest 8 dage efter leveringen. Skjulte mangler skal reklameres over, straks efter at de er eller burde være opdaget.',
      ),
      b.clause(
        'Leverer Sælger for sent, og skyldes forsinkelsen ikke Købers forhold, betaler Sælger en dagbod på 0,5 % af købesummen ekskl. moms for hver påbegyndt arbejdsdag, dog højst 10 %. Dagboden er Købers eneste krav som følge af forsinkelsen, medmindre forsinkelsen overstiger 20 arbejdsdage, hvorefter Køber kan hæve aftalen.',
      ),
      b.h1('Betaling'),
      b.when(
        'has_down_payment',
        b.clause(
          'Køber betaler en forudbetaling på {down_payment} kr. inkl. moms ved aftalens underskrift. Restkøbesummen betales senest {payment_days} dage efter leveringen mod faktura.',
        ),
      ),
      b.unless(
        'has_down_payment',
        b.clause('Købesummen betales senest {payment_days} dage efter leveringen mod faktura.'),
      ),
      b.clause(
        'Ved forsinket betaling betaler Køber morarenter efter renteloven fra forfaldsdagen, til betaling sker.',
      ),
      b.h1('Ejendomsret og risiko'),
      b.when(
        'retention_of_title',
        b.clause(
          'Sælger forbeholder sig ejendomsretten til Varerne, indtil købesummen med tillæg af eventuelle renter og omkostninger er betalt fuldt ud. Indtil da må Køber ikke videresælge, pantsætte eller på anden måde råde over Varerne.',
        ),
        b.clause('Risikoen for Varerne går over til Køber ved leveringen.'),
      ),
      b.unless(
        'retention_of_title',
        b.clause('Ejendomsretten til og risikoen for Varerne går over til Køber ved leveringen.'),
      ),
      b.h1('Mangler og garanti'),
      b.clause(
        'Sælger yder {warranty_months} måneders garanti fra leveringen for fabrikations- og materialefejl. I garantiperioden afhjælper Sælger mangler ved reparation eller omlevering inden for rimelig tid.',
      ),
      b.clause(
        'Garantien omfatter ikke fejl, der skyldes forkert betjening, manglende vedligeholdelse efter Sælgers anvisninger eller almindelig slitage.',
      ),
      b.clause(
        'Sælgers samlede ansvar er begrænset til købesummen ekskl. moms. Sælger er ikke ansvarlig for driftstab, avancetab eller andre indirekte tab.',
      ),
      b.h1('Lovvalg og tvister'),
      b.clause(
        'Aftalen er underlagt dansk ret, herunder købeloven, i det omfang den ikke er fraveget ved denne aftale. Tvister, som parterne ikke kan løse ved forhandling, afgøres ved Sælgers hjemting.',
      ),
      b.h2('Underskrifter'),
      b.p('{signing_city}, den {agreement_date}', { keepNext: true, spacing: { after: 240 } }),
      signatureBlocks(look, [
        {
          role: 'For Sælger',
          name: '{seller_signatory_name}',
          title: '{seller_signatory_title}',
          recipient: 1,
        },
        {
          role: 'For Køber',
          name: '{buyer_signatory_name}',
          title: '{buyer_signatory_title}',
          recipient: 2,
        },
      ]),
    ],
  });
}

const installed = {
  agreement_no: 'KA-2025-031',
  agreement_date: '2025-02-18',
  seller_name: 'Vestjysk Maskinhandel A/S',
  seller_cvr: '19 54 33 21',
  seller_address: 'Industrivej Nord 8, 7500 Holstebro',
  buyer_name: 'Thy Træ & Snedkeri ApS',
  buyer_cvr: '40 18 27 66',
  buyer_address: 'Østergade 40, 7700 Thisted',
  items: [
    {
      item_no: 'VM-2040',
      description: 'Båndsav, 400 mm, med digital målestok',
      quantity: 1,
      unit_price: 148500,
      amount: 148500,
    },
    {
      item_no: 'VM-1120',
      description: 'Afsugningsanlæg, 3 kW, inkl. filterposer',
      quantity: 1,
      unit_price: 42750,
      amount: 42750,
    },
    {
      item_no: 'TB-0300',
      description: 'Rullebord, 3 m',
      quantity: 2,
      unit_price: 6395.5,
      amount: 12791,
    },
  ],
  subtotal: 204041,
  vat_amount: 51010.25,
  total: 255051.25,
  includes_installation: true,
  delivery_date: '2025-03-24',
  delivery_address: 'Østergade 40, 7700 Thisted',
  has_down_payment: true,
  down_payment: 75000,
  payment_days: 14,
  retention_of_title: true,
  warranty_months: 24,
  signing_city: 'Holstebro',
  seller_signatory_name: 'Niels Bach',
  seller_signatory_title: 'Salgsdirektør',
  buyer_signatory_name: 'Ida Kristensen',
  buyer_signatory_title: 'Direktør',
};

const cash = {
  agreement_no: 'KA-2025-077',
  agreement_date: '2025-10-06',
  seller_name: 'Kontorhuset Fyn ApS',
  seller_cvr: '33 90 11 47',
  seller_address: 'Vestre Stationsvej 12, 5000 Odense C',
  buyer_name: 'Tandlægerne på Torvet I/S',
  buyer_cvr: '25 66 70 12',
  buyer_address: 'Torvet 2, 5600 Faaborg',
  items: [
    {
      item_no: 'KH-5521',
      description: 'Hæve-sænkebord, 160 × 80 cm',
      quantity: 4,
      unit_price: 4295,
      amount: 17180,
    },
  ],
  subtotal: 17180,
  vat_amount: 4295,
  total: 21475,
  includes_installation: false,
  delivery_date: '2025-10-20',
  delivery_address: 'Torvet 2, 5600 Faaborg',
  has_down_payment: false,
  payment_days: 8,
  retention_of_title: false,
  warranty_months: 12,
  signing_city: 'Odense',
  seller_signatory_name: 'Rasmus Holm',
  seller_signatory_title: 'Indehaver',
  buyer_signatory_name: 'Maria Dahl',
  buyer_signatory_title: 'Partner',
};

export const koebsaftale: LibraryDocument = {
  id: 'koebsaftale',
  meta: {
    name: 'Købsaftale',
    description:
      'Purchase agreement for machinery and equipment between businesses (Danish): a table of items with totals computed by the caller, optional installation, down payment and retention of title (ejendomsforbehold).',
    locale: 'da',
    timeZone: 'Europe/Copenhagen',
    signers: [
      { role: 'the seller’s signatory', name: 'seller_signatory_name' },
      { role: 'the buyer’s signatory', name: 'buyer_signatory_name' },
    ],
    fields,
  },
  document,
  fixtures: [
    {
      name: 'med-montering',
      tags: tagInputs(fields, installed),
      expected: [
        'Købsaftale nr. KA-2025-031',
        'Vestjysk Maskinhandel A/S',
        'CVR-nr. 40 18 27 66',
        'Båndsav, 400 mm, med digital målestok',
        '148.500,00',
        '6.395,50',
        '12.791,00',
        '204.041,00',
        '51.010,25',
        '255.051,25',
        'Købesummen omfatter levering, montering og idriftsættelse',
        'Varerne leveres den 24. marts 2025 på Østergade 40, 7700 Thisted.',
        'forudbetaling på 75.000,00 kr. inkl. moms',
        'senest 14 dage efter leveringen',
        'Sælger forbeholder sig ejendomsretten til Varerne',
        'Sælger yder 24 måneders garanti',
        'Holstebro, den 18. februar 2025',
        'Titel: Salgsdirektør',
      ],
    },
    {
      name: 'kontant',
      tags: tagInputs(fields, cash),
      expected: [
        'Købsaftale nr. KA-2025-077',
        'Tandlægerne på Torvet I/S',
        'Hæve-sænkebord, 160 × 80 cm',
        '4.295,00',
        '17.180,00',
        '21.475,00',
        'Montering og idriftsættelse er ikke omfattet',
        'Varerne leveres den 20. oktober 2025',
        'Købesummen betales senest 8 dage efter leveringen mod faktura.',
        'Ejendomsretten til og risikoen for Varerne går over til Køber ved leveringen.',
        'Sælger yder 12 måneders garanti',
        'Odense, den 6. oktober 2025',
        'Navn: Maria Dahl',
      ],
    },
  ],
};
