import { Blocks } from '../kit/blocks.js';
import type { Look } from '../kit/look.js';
import { signatureBlocks } from '../kit/signatures.js';
import { factsTable } from '../kit/tables.js';
import { wordDocument } from '../kit/word-document.js';
import { field, tagInputs } from '../fields.js';
import type { LibraryDocument } from '../library-document.js';

const look: Look = {
  lang: 'en',
  wordLanguage: 'en-GB',
  body: 'Cambria',
  headings: 'Cambria',
  size: 11,
  accent: '7B2C2C',
  clauses: '%1.',
  justify: true,
  delimiters: ['{', '}'],
};

const DATE = 'D MMMM YYYY';

const fields = {
  grantor_name: field.text('the person giving the power (the Grantor)'),
  grantor_birth_date: field.date(DATE, 'the Grantor’s date of birth'),
  grantor_address: field.text('the Grantor’s address'),
  attorney_name: field.text('the person given the power (the Attorney)'),
  attorney_birth_date: field.date(DATE, 'the Attorney’s date of birth'),
  attorney_address: field.text('the Attorney’s address'),
  effective_date: field.date(DATE, 'the day the power takes effect'),
  powers: field.list('what the Attorney may do, one lettered item each', {
    power: field.text('one power, completing “The Attorney may …”'),
  }),
  may_delegate: field.flag('whether the Attorney may appoint substitutes'),
  has_expiry: field.flag('whether the power ends on a fixed date'),
  expiry_date: field.date(DATE, 'the last day of the power'),
  governing_law: field.text('the law that governs, such as “England and Wales”'),
  requires_witness: field.flag('signed as a deed before a witness (England and Wales)'),
  witness_name: field.text('the witness'),
  witness_address: field.text('the witness’s address'),
  witness_occupation: field.text('the witness’s occupation'),
  signing_place: field.text('where the Grantor signs'),
  signing_date: field.date(DATE, 'the date of signing'),
};

function document() {
  const b = new Blocks(look);
  return wordDocument({
    look,
    title: 'Power of Attorney',
    subject: 'Specific power of attorney',
    header: { left: '{grantor_name}', right: 'Power of Attorney' },
    footer: 'Power of Attorney given by {grantor_name} to {attorney_name}',
    body: [
      b.title('Power of Attorney'),
      b.subtitle('Specific power of attorney'),
      b.p(
        'This Power of Attorney is given on **{signing_date}** at {signing_place} by the Grantor to the Attorney:',
      ),
      factsTable(look, [
        ['Grantor', ['**{grantor_name}**', 'born {grantor_birth_date}', '{grantor_address}']],
        ['Attorney', ['**{attorney_name}**', 'born {attorney_birth_date}', '{attorney_address}']],
      ]),
      b.h1('Appointment'),
      b.clause(
        'I, {grantor_name}, appoint {attorney_name} as my attorney (the “Attorney”) with effect from {effective_date}, to act in my name and on my behalf in the matters set out in clause 2.',
      ),
      b.h1('Powers'),
      b.clause('The Attorney may:'),
      b.loop('powers', b.lettered('{power}')),
      b.clause(
        'The Attorney may sign, execute and deliver any document, including electronically, and do anything else reasonably necessary to exercise these powers.',
      ),
      b.h1('Duties and limits'),
      b.clause(
        'The Attorney shall act in good faith and in my best interests, keep my money and property separate from the Attorney’s own, and keep accounts of every transaction made under this Power of Attorney, which I may inspect on request.',
      ),
      b.clause(
        'The Attorney may not make gifts of my property or use it for the Attorney’s own benefit.',
      ),
      b.clause(
        '{#may_delegate}The Attorney may appoint one or more substitutes to exercise any of these powers and may revoke such an appointment. The Attorney remains responsible for the acts of any substitute.{/may_delegate}{^may_delegate}The Attorney may not delegate any of these powers to another person.{/may_delegate}',
      ),
      b.h1('Duration and revocation'),
      b.clause(
        '{#has_expiry}This Power of Attorney ends at the end of {expiry_date}, unless I revoke it earlier by written notice to the Attorney.{/has_expiry}{^has_expiry}This Power of Attorney remains in force until I revoke it by written notice to the Attorney.{/has_expiry}',
      ),
      b.clause(
        'Any third party may rely on this Power of Attorney until it receives written notice that it has been revoked or has ended. I undertake to ratify and confirm anything the Attorney lawfully does under it.',
      ),
      b.h1('Governing law'),
      b.clause('This Power of Attorney is governed by the laws of {governing_law}.'),
      b.h2('Signatures'),
      b.p(
        '{#requires_witness}Executed as a deed by the Grantor in the presence of the witness below, and accepted by the Attorney.{/requires_witness}{^requires_witness}Signed electronically by the Grantor and accepted by the Attorney. No witness is required under the governing law.{/requires_witness}',
        { keepNext: true, spacing: { after: 240 } },
      ),
      signatureBlocks(look, [
        { role: 'The Grantor', name: '{grantor_name}', recipient: 1 },
        { role: 'The Attorney, accepting', name: '{attorney_name}', recipient: 2 },
      ]),
      b.when(
        'requires_witness',
        b.p('Signed by the Grantor in the presence of:', { keepNext: true }),
        signatureBlocks(look, [
          {
            role: 'Witness',
            name: '{witness_name}',
            extra: ['Address: {witness_address}', 'Occupation: {witness_occupation}'],
          },
        ]),
      ),
    ],
  });
}

const propertySale = {
  grantor_name: 'Helen Margaret Whitfield',
  grantor_birth_date: '1948-02-19',
  grantor_address: '22 Chapel Lane, Harrogate HG1 2PQ',
  attorney_name: 'James Whitfield',
  attorney_birth_date: '1976-10-03',
  attorney_address: '5 Brunswick Square, Leeds LS2 7QA',
  effective_date: '2025-06-16',
  powers: [
    {
      power:
        'sell my property at 22 Chapel Lane, Harrogate HG1 2PQ at a price of not less than the value recommended by an independent RICS valuer;',
    },
    {
      power:
        'instruct solicitors and estate agents, and sign the contract, transfer and any other document needed for the sale;',
    },
    { power: 'receive the proceeds of sale into my account with Yorkshire Building Society.' },
  ],
  may_delegate: false,
  has_expiry: true,
  expiry_date: '2026-06-15',
  governing_law: 'England and Wales',
  requires_witness: true,
  witness_name: 'Priya Shah',
  witness_address: '41 Station Parade, Harrogate HG1 1TT',
  witness_occupation: 'Pharmacist',
  signing_place: 'Harrogate',
  signing_date: '2025-06-12',
};

const estate = {
  grantor_name: 'Ingrid Lund Madsen',
  grantor_birth_date: '1952-07-30',
  grantor_address: 'Rosenvængets Allé 9, 2100 Copenhagen Ø, Denmark',
  attorney_name: 'Thomas Lund Madsen',
  attorney_birth_date: '1981-01-11',
  attorney_address: 'Kongevejen 118, 2830 Virum, Denmark',
  effective_date: '2025-09-01',
  powers: [
    { power: 'operate my accounts with Danske Bank A/S, including payments and transfers;' },
    { power: 'deal with the Danish Tax Agency (Skattestyrelsen) about my tax affairs;' },
  ],
  may_delegate: true,
  has_expiry: false,
  governing_law: 'Denmark',
  requires_witness: false,
  signing_place: 'Copenhagen',
  signing_date: '2025-08-25',
};

export const powerOfAttorney: LibraryDocument = {
  id: 'power-of-attorney',
  meta: {
    name: 'Power of Attorney',
    description:
      'Specific power of attorney (English): the powers are a lettered list; optional substitution, expiry date and a witness for a deed.',
    locale: 'en',
    timeZone: 'Europe/London',
    signers: [
      { role: 'the Grantor', name: 'grantor_name' },
      { role: 'the Attorney, accepting', name: 'attorney_name' },
    ],
    fields,
  },
  document,
  fixtures: [
    {
      name: 'property-sale-deed',
      tags: tagInputs(fields, propertySale),
      expected: [
        'This Power of Attorney is given on 12 June 2025 at Harrogate',
        'born 19 February 1948',
        'I, Helen Margaret Whitfield, appoint James Whitfield as my attorney (the “Attorney”) with effect from 16 June 2025',
        'sell my property at 22 Chapel Lane, Harrogate HG1 2PQ',
        'receive the proceeds of sale into my account with Yorkshire Building Society.',
        'The Attorney may not delegate any of these powers to another person.',
        'This Power of Attorney ends at the end of 15 June 2026',
        'governed by the laws of England and Wales.',
        'Executed as a deed by the Grantor in the presence of the witness below',
        'Name: Priya Shah',
        'Occupation: Pharmacist',
      ],
    },
    {
      name: 'bank-and-tax',
      tags: tagInputs(fields, estate),
      expected: [
        'This Power of Attorney is given on 25 August 2025 at Copenhagen',
        'born 11 January 1981',
        'with effect from 1 September 2025',
        'operate my accounts with Danske Bank A/S, including payments and transfers;',
        'deal with the Danish Tax Agency (Skattestyrelsen) about my tax affairs;',
        'The Attorney may appoint one or more substitutes',
        'remains in force until I revoke it by written notice to the Attorney.',
        'No witness is required under the governing law.',
        'Name: Thomas Lund Madsen',
      ],
    },
  ],
};
