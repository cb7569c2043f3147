import { Blocks } from '../kit/blocks.js';
import type { Look } from '../kit/look.js';
import { signatureBlocks } from '../kit/signatures.js';
import { factsTable, gridTable } from '../kit/tables.js';
import { wordDocument } from '../kit/word-document.js';
import { field, formatted, tagInputs } from '../fields.js';
import type { LibraryDocument } from '../library-document.js';

/** A commercial document: unnumbered headings, left-aligned, Arial. */
const look: Look = {
  lang: 'en',
  wordLanguage: 'en-GB',
  body: 'Arial',
  headings: 'Arial',
  size: 10,
  accent: 'C55A11',
  clauses: 'none',
  justify: false,
  delimiters: ['{', '}'],
};

const DATE = 'D MMMM YYYY';
const AMOUNT = '#,##0.00';

const fields = {
  supplier_name: field.text('the company quoting'),
  supplier_address: field.text('the supplier’s address'),
  supplier_vat_no: field.text('the supplier’s VAT number'),
  supplier_email: field.text('the supplier’s email'),
  quote_no: field.text('the quotation number'),
  quote_date: field.date(DATE, 'the date of the quotation'),
  valid_until: field.date(DATE, 'the last day the quotation can be accepted'),
  customer_name: field.text('the customer'),
  customer_contact: field.text('the person the quotation is addressed to'),
  customer_address: field.text('the customer’s address'),
  customer_vat_no: field.text('the customer’s VAT number'),
  project_title: field.text('what is quoted for'),
  currency: field.text('ISO currency code of every amount, such as EUR'),
  lines: field.list('the quotation lines, one table row each', {
    description: field.text('what is delivered'),
    quantity: field.number('#,##0.##', 'how many'),
    unit: field.text('the unit: hours, days, licences'),
    unit_price: field.number(AMOUNT, 'price per unit'),
    amount: field.number(AMOUNT, 'quantity times unit price, computed by the caller'),
  }),
  subtotal: field.number(AMOUNT, 'the sum of the line amounts'),
  has_discount: field.flag('whether a discount row is shown'),
  discount_label: field.text('what the discount is, such as “10% framework discount”'),
  discount_amount: field.number(AMOUNT, 'the discount, a positive amount'),
  reverse_charge: field.flag('EU business customer: no VAT, the customer accounts for it'),
  vat_rate: field.number('0%', 'the VAT rate as a fraction: 0.25 for 25%'),
  vat_amount: field.number(AMOUNT, 'the VAT'),
  total: field.number(AMOUNT, 'the amount payable'),
  delivery_weeks: field.number('0', 'weeks from acceptance to the start of work'),
  payment_days: field.number('0', 'days from invoice to due date'),
  supplier_signatory_name: field.text('who signs for the supplier'),
  supplier_signatory_title: field.text('the supplier signatory’s title'),
  customer_signatory_name: field.text('who accepts for the customer'),
  customer_signatory_title: field.text('the customer signatory’s title'),
};

function document() {
  const b = new Blocks(look);
  return wordDocument({
    look,
    title: 'Quotation',
    subject: 'Quotation',
    header: { left: '{supplier_name}', right: 'Quotation {quote_no}' },
    footer: '{supplier_name} · {supplier_address} · VAT no. {supplier_vat_no} · {supplier_email}',
    body: [
      b.title('Quotation'),
      b.subtitle('{project_title}'),
      factsTable(
        look,
        [
          ['Quotation no.', '{quote_no}'],
          ['Date', '{quote_date}'],
          ['Valid until', '{valid_until}'],
          ['Customer', ['**{customer_name}**', 'Attn. {customer_contact}', '{customer_address}']],
          ['Customer VAT no.', '{customer_vat_no}'],
        ],
        0.25,
      ),
      b.p('Dear {customer_contact},', { spacing: { before: 240 } }),
      b.p(
        'Thank you for your enquiry. We are pleased to quote as follows. All amounts are in {currency}.',
      ),
      b.h1('Price'),
      gridTable(
        look,
        [
          { heading: 'Description', share: 0.43 },
          { heading: 'Qty', share: 0.09, align: 'right' },
          { heading: 'Unit', share: 0.12 },
          { heading: 'Unit price', share: 0.17, align: 'right' },
          { heading: 'Amount', share: 0.19, align: 'right' },
        ],
        [['{#lines}{description}', '{quantity}', '{unit}', '{unit_price}', '{amount}{/lines}']],
        {
          totals: [
            { label: 'Subtotal', value: '{subtotal}' },
            {
              label: 'Discount: {discount_label}',
              value: '−{discount_amount}',
              condition: '#has_discount',
            },
            { label: 'VAT {vat_rate}', value: '{vat_amount}', condition: '^reverse_charge' },
            { label: 'Total {currency}', value: '{total}', bold: true },
          ],
        },
      ),
      b.when(
        'reverse_charge',
        b.small(
          'Reverse charge: VAT to be accounted for by the customer under Article 196 of Council Directive 2006/112/EC. Customer VAT no. {customer_vat_no}.',
        ),
      ),
      b.h1('Terms'),
      b.numbered(
        'This quotation is valid until {valid_until}. After that date prices and availability may change.',
        'We expect to start within {delivery_weeks} weeks of your written acceptance. We will confirm the schedule when we receive it.',
        'We invoice monthly in arrears for time and materials, and licences in advance. Invoices are payable within {payment_days} days of the invoice date; interest on late payment accrues under the Danish Interest Act.',
        'Travel and work outside the scope above are invoiced separately at the unit prices in this quotation.',
        'Our general terms of business, available on request, apply. Where they conflict with this quotation, this quotation prevails.',
      ),
      b.h1('Acceptance'),
      b.p(
        'To accept this quotation, sign below. Your signature is an order on the terms of this quotation.',
        { keepNext: true, spacing: { after: 240 } },
      ),
      signatureBlocks(look, [
        {
          role: 'For {supplier_name}',
          name: '{supplier_signatory_name}',
          title: '{supplier_signatory_title}',
          recipient: 1,
        },
        {
          role: 'Accepted for {customer_name}',
          name: '{customer_signatory_name}',
          title: '{customer_signatory_title}',
          recipient: 2,
        },
      ]),
    ],
  });
}

const euCustomer = {
  supplier_name: 'Fjordline Consulting ApS',
  supplier_address: 'Strandvejen 60, 2900 Hellerup, Denmark',
  supplier_vat_no: 'DK41556677',
  supplier_email: 'sales@fjordline.dk',
  quote_no: 'Q-2025-0117',
  quote_date: '2025-04-07',
  valid_until: '2025-05-07',
  customer_name: 'Brandt Logistik GmbH',
  customer_contact: 'Ms Katrin Brandt',
  customer_address: 'Hafenstraße 12, 20457 Hamburg, Germany',
  customer_vat_no: 'DE298765432',
  project_title: 'Electronic signing for carrier contracts',
  currency: 'EUR',
  lines: [
    {
      description: 'Solution design workshop',
      quantity: 2,
      unit: 'days',
      unit_price: 1450,
      amount: 2900,
    },
    {
      description: 'Integration with the transport management system',
      quantity: { value: 62.5, type: 'number', format: '#,##0.0' },
      unit: 'hours',
      unit_price: 135,
      amount: 8437.5,
    },
    {
      description: 'Signing licences, first year',
      quantity: 40,
      unit: 'users',
      unit_price: 96,
      amount: 3840,
    },
    {
      description: 'Administrator training',
      quantity: 1,
      unit: 'session',
      unit_price: 780,
      amount: 780,
    },
  ],
  subtotal: 15957.5,
  has_discount: true,
  discount_label: '5% framework discount',
  discount_amount: 797.88,
  reverse_charge: true,
  vat_rate: 0,
  vat_amount: 0,
  total: 15159.62,
  delivery_weeks: 3,
  payment_days: 30,
  supplier_signatory_name: 'Anders Lund',
  supplier_signatory_title: 'Partner',
  customer_signatory_name: 'Katrin Brandt',
  customer_signatory_title: 'Head of Procurement',
};

const domestic = {
  supplier_name: 'Fjordline Consulting ApS',
  supplier_address: 'Strandvejen 60, 2900 Hellerup, Denmark',
  supplier_vat_no: 'DK41556677',
  supplier_email: 'sales@fjordline.dk',
  quote_no: 'Q-2025-0142',
  quote_date: '2025-10-30',
  valid_until: '2025-11-30',
  customer_name: 'Kragh & Co. Advokatpartnerselskab',
  customer_contact: 'Mr Jesper Kragh',
  customer_address: 'Amaliegade 8, 1256 Copenhagen K, Denmark',
  customer_vat_no: 'DK36112045',
  project_title: 'Template library for client engagement letters',
  currency: 'DKK',
  lines: [
    {
      description: 'Template design and review with the firm’s lawyers',
      quantity: 24,
      unit: 'hours',
      unit_price: 1150,
      amount: 27600,
    },
    {
      description: 'Signing licences, first year',
      quantity: 15,
      unit: 'users',
      unit_price: 720,
      amount: 10800,
    },
  ],
  subtotal: 38400,
  has_discount: false,
  reverse_charge: false,
  vat_rate: 0.25,
  vat_amount: 9600,
  total: 48000,
  delivery_weeks: 2,
  payment_days: 14,
  supplier_signatory_name: 'Anders Lund',
  supplier_signatory_title: 'Partner',
  customer_signatory_name: 'Jesper Kragh',
  customer_signatory_title: 'Managing Partner',
};

export const quote: LibraryDocument = {
  id: 'quote',
  meta: {
    name: 'Quotation',
    description:
      'Quotation (English) with a table of lines, subtotal, optional discount, VAT or EU reverse charge, and total; every amount is computed by the caller. The lines are a list.',
    locale: 'en',
    timeZone: 'Europe/Copenhagen',
    signers: [
      { role: 'the supplier’s signatory', name: 'supplier_signatory_name' },
      { role: 'the customer’s signatory, accepting', name: 'customer_signatory_name' },
    ],
    fields,
  },
  document,
  fixtures: [
    {
      name: 'eu-reverse-charge',
      tags: tagInputs(fields, {
        ...euCustomer,
        quote_date: formatted('2025-04-07', 'MMMM D, YYYY'),
      }),
      expected: [
        'Quotation Q-2025-0117',
        'Electronic signing for carrier contracts',
        'April 7, 2025',
        '7 May 2025',
        'Attn. Ms Katrin Brandt',
        'Dear Ms Katrin Brandt,',
        'All amounts are in EUR.',
        'Solution design workshop',
        'Integration with the transport',
        '62.5',
        '8,437.50',
        '3,840.00',
        'Administrator training',
        '15,957.50',
        'Discount: 5% framework discount',
        '−797.88',
        'Total EUR',
        '15,159.62',
        'Reverse charge: VAT to be accounted for by the customer under Article 196',
        'Customer VAT no. DE298765432.',
        'start within 3 weeks of your written acceptance',
        'payable within 30 days of the invoice date',
        'Accepted for Brandt Logistik GmbH',
        'Name: Anders Lund',
        'Title: Head of Procurement',
      ],
    },
    {
      name: 'domestic-vat',
      tags: tagInputs(fields, domestic),
      expected: [
        'Quotation Q-2025-0142',
        '30 October 2025',
        'Kragh & Co. Advokatpartnerselskab',
        'All amounts are in DKK.',
        'Template design and review',
        '27,600.00',
        '1,150.00',
        '38,400.00',
        'VAT 25%',
        '9,600.00',
        'Total DKK',
        '48,000.00',
        'payable within 14 days of the invoice date',
      ],
    },
  ],
};
