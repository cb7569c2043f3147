import { Blocks } from '../kit/blocks.js';
import type { Look } from '../kit/look.js';
import { signatureBlocks } from '../kit/signatures.js';
import { factsTable, gridTable } from '../kit/tables.js';
import { wordDocument } from '../kit/word-document.js';
import { field, tagInputs } from '../fields.js';
import type { Field, LibraryDocument } from '../library-document.js';

/** A form rather than a contract: unnumbered headings, left-aligned text. */
const look: Look = {
  lang: 'da',
  wordLanguage: 'da-DK',
  body: 'Calibri',
  headings: 'Calibri',
  size: 11,
  accent: '375623',
  clauses: 'none',
  justify: false,
  delimiters: ['{', '}'],
};

const consent = (description: string): Field => ({
  type: 'boolean',
  format: 'Ja|Nej',
  description,
});

const fields = {
  controller_name: field.text('the data controller (the organisation asking for consent)'),
  controller_cvr: field.text('the controller’s CVR number'),
  controller_address: field.text('the controller’s address'),
  controller_email: field.text('where consent is withdrawn and questions are sent'),
  has_dpo: field.flag('whether the controller has a data protection officer'),
  dpo_email: field.text('the data protection officer’s email'),
  subject_name: field.text('the person whose data it is'),
  subject_email: field.text('the person’s email'),
  consent_newsletter: consent('consent to newsletters and offers by email'),
  consent_photos: consent('consent to photos and video on the website and social media'),
  consent_partner: consent('consent to passing name and email to the partner'),
  partner_name: field.text('the partner that data may be passed to'),
  retention_months: field.number('0', 'months data is kept after consent ends'),
  is_minor: field.flag('the person is under 15: a parent or guardian consents'),
  guardian_name: field.text('the parent or guardian who consents for a minor'),
  signing_date: field.date('D. MMMM YYYY', 'the date consent is given'),
};

function document() {
  const b = new Blocks(look);
  return wordDocument({
    look,
    title: 'Samtykkeerklæring',
    subject: 'Samtykke til behandling af personoplysninger',
    header: { left: '{controller_name}', right: 'Samtykkeerklæring' },
    footer: 'Samtykke fra {subject_name}',
    body: [
      b.title('Samtykkeerklæring'),
      b.subtitle(
        'Samtykke til behandling af personoplysninger efter databeskyttelsesforordningens artikel 6, stk. 1, litra a',
      ),
      b.h1('Dataansvarlig'),
      factsTable(look, [
        ['Virksomhed', ['**{controller_name}**', 'CVR-nr. {controller_cvr}']],
        ['Adresse', '{controller_address}'],
        ['E-mail', '{controller_email}'],
      ]),
      b.p(
        '{#has_dpo}Vi har udpeget en databeskyttelsesrådgiver, som du kan kontakte på {dpo_email} med spørgsmål om vores behandling af dine personoplysninger.{/has_dpo}{^has_dpo}Spørgsmål om vores behandling af dine personoplysninger kan du sende til {controller_email}.{/has_dpo}',
        { spacing: { before: 160 } },
      ),
      b.h1('Hvad du giver samtykke til'),
      b.p(
        '{#is_minor}Som indehaver af forældremyndigheden over **{subject_name}** ({subject_email}) giver jeg{/is_minor}{^is_minor}Jeg, **{subject_name}** ({subject_email}), giver{/is_minor} hermed samtykke til, at {controller_name} behandler personoplysninger til de formål, der er markeret med »Ja« nedenfor.',
      ),
      gridTable(
        look,
        [
          { heading: 'Formål', share: 0.44 },
          { heading: 'Oplysninger', share: 0.4 },
          { heading: 'Samtykke', share: 0.16, align: 'center' },
        ],
        [
          ['Nyhedsbrev og tilbud på e-mail', 'Navn og e-mailadresse', '**{consent_newsletter}**'],
          [
            'Billeder og video på hjemmesiden',
            'Billeder, video og fornavn',
            '**{consent_photos}**',
          ],
          ['Videregivelse til {partner_name}', 'Navn og e-mailadresse', '**{consent_partner}**'],
        ],
      ),
      b.h1('Sådan bruger vi oplysningerne'),
      b.when(
        'consent_newsletter',
        b.p(
          '**Nyhedsbrev.** Vi sender dig vores nyhedsbrev og relevante tilbud højst to gange om måneden. Du kan altid afmelde dig via linket nederst i hver e-mail.',
        ),
      ),
      b.unless(
        'consent_newsletter',
        b.p('**Nyhedsbrev.** Vi sender dig ikke nyhedsbreve eller tilbud på e-mail.'),
      ),
      b.when(
        'consent_photos',
        b.p(
          '**Billeder og video.** Vi kan bruge billeder og video, hvor du optræder, på vores hjemmeside og sociale medier. Vi bruger ikke billeder, der kan virke krænkende, og vi nævner kun dit fornavn.',
        ),
      ),
      b.unless(
        'consent_photos',
        b.p('**Billeder og video.** Vi offentliggør ikke billeder eller video, hvor du optræder.'),
      ),
      b.when(
        'consent_partner',
        b.p(
          '**Videregivelse.** Vi videregiver dit navn og din e-mailadresse til {partner_name}, som selv bliver dataansvarlig for sin videre behandling af oplysningerne.',
        ),
      ),
      b.unless(
        'consent_partner',
        b.p('**Videregivelse.** Vi videregiver ikke dine oplysninger til andre.'),
      ),
      b.p('Vi behandler disse oplysninger om dig:'),
      b.bullets('dit navn og din e-mailadresse'),
      b.when('consent_newsletter', b.bullets('hvilke af vores e-mails du åbner og klikker på')),
      b.when('consent_photos', b.bullets('billeder og video, hvor du optræder')),
      b.h1('Opbevaring'),
      b.p(
        'Vi opbevarer oplysningerne, så længe dit samtykke gælder, og sletter dem senest {retention_months} måneder efter, at du har trukket samtykket tilbage, eller at vi sidst har haft kontakt med dig.',
      ),
      b.h1('Dine rettigheder'),
      b.p('Efter databeskyttelsesforordningen har du ret til:'),
      b.bullets(
        'at få indsigt i de oplysninger, vi behandler om dig',
        'at få urigtige oplysninger rettet',
        'at få oplysninger slettet',
        'at få behandlingen begrænset',
        'at modtage dine oplysninger i et struktureret, almindeligt anvendt og maskinlæsbart format (dataportabilitet)',
        'at gøre indsigelse mod behandlingen',
      ),
      b.p(
        '**Tilbagetrækning.** Samtykket er frivilligt. Du kan til enhver tid trække det helt eller delvist tilbage ved at skrive til {controller_email}. Tilbagetrækningen påvirker ikke lovligheden af den behandling, der er sket, før du trak samtykket tilbage.',
      ),
      b.p(
        '**Klage.** Du kan klage over vores behandling af dine personoplysninger til Datatilsynet, Carl Jacobsens Vej 35, 2500 Valby, www.datatilsynet.dk.',
      ),
      b.h1('Underskrift'),
      b.p('Samtykket er givet den {signing_date}.', { keepNext: true }),
      b.when(
        'is_minor',
        b.p(
          'Da {subject_name} er under 15 år, gives samtykket af indehaveren af forældremyndigheden.',
          { keepNext: true },
        ),
      ),
      signatureBlocks(look, [
        {
          role: '{#is_minor}Forældremyndighedens indehaver{/is_minor}{^is_minor}Den registrerede{/is_minor}',
          name: '{#is_minor}{guardian_name}{/is_minor}{^is_minor}{subject_name}{/is_minor}',
          recipient: 1,
        },
      ]),
    ],
  });
}

const club = {
  controller_name: 'Aarhus Svømmeklub',
  controller_cvr: '29 81 44 10',
  controller_address: 'Spanien 1, 8000 Aarhus C',
  controller_email: 'kontor@aarhus-svoem.dk',
  has_dpo: false,
  subject_name: 'Alma Nielsen',
  subject_email: 'familien.nielsen@example.dk',
  consent_newsletter: true,
  consent_photos: true,
  consent_partner: false,
  partner_name: 'Dansk Svømmeunion',
  retention_months: 6,
  is_minor: true,
  guardian_name: 'Peter Nielsen',
  signing_date: '2025-09-01',
};

const shop = {
  controller_name: 'Grøn Kurv ApS',
  controller_cvr: '43 02 17 88',
  controller_address: 'Vesterbrogade 118, 1620 København V',
  controller_email: 'privatliv@groenkurv.dk',
  has_dpo: true,
  dpo_email: 'dpo@groenkurv.dk',
  subject_name: 'Henrik Østergaard',
  subject_email: 'h.oestergaard@example.com',
  consent_newsletter: false,
  consent_photos: false,
  consent_partner: true,
  partner_name: 'Madkassen Nord A/S',
  retention_months: 24,
  is_minor: false,
  signing_date: '2026-02-14',
};

export const samtykkeerklaering: LibraryDocument = {
  id: 'samtykkeerklaering',
  meta: {
    name: 'Samtykkeerklæring (GDPR)',
    description:
      'GDPR consent form (Danish): consent per purpose shown as Ja/Nej, the data subject’s rights, a guardian signing for a child under 15, an optional data protection officer.',
    locale: 'da',
    timeZone: 'Europe/Copenhagen',
    signers: [
      {
        role: 'the data subject, or for a child (is_minor) the guardian (guardian_name)',
        name: 'subject_name',
      },
    ],
    fields,
  },
  document,
  fixtures: [
    {
      name: 'barn-med-billeder',
      tags: tagInputs(fields, club),
      expected: [
        'Aarhus Svømmeklub',
        'CVR-nr. 29 81 44 10',
        'Spørgsmål om vores behandling af dine personoplysninger kan du sende til',
        'Som indehaver af forældremyndigheden over Alma Nielsen (familien.nielsen@example.dk) giver jeg hermed samtykke til, at Aarhus Svømmeklub behandler',
        'Vi sender dig vores nyhedsbrev og relevante tilbud',
        'Vi kan bruge billeder og video, hvor du optræder',
        'hvilke af vores e-mails du åbner og klikker på',
        'sletter dem senest 6 måneder efter',
        'Samtykket er givet den 1. september 2025.',
        'Da Alma Nielsen er under 15 år, gives samtykket af indehaveren af forældremyndigheden.',
        'Vi videregiver ikke dine oplysninger til andre.',
        'Nyhedsbrev og tilbud på e-mail Navn og e-mailadresse Ja',
        'Videregivelse til Dansk Svømmeunion Navn og e-mailadresse Nej',
        'Navn: Peter Nielsen',
        'Samtykke fra Alma Nielsen',
      ],
    },
    {
      name: 'voksen-videregivelse',
      tags: tagInputs(fields, shop),
      expected: [
        'Grøn Kurv ApS',
        'Vi har udpeget en databeskyttelsesrådgiver, som du kan kontakte på dpo@groenkurv.dk',
        'Jeg, Henrik Østergaard (h.oestergaard@example.com), giver hermed samtykke til, at Grøn Kurv ApS behandler',
        'Vi sender dig ikke nyhedsbreve eller tilbud på e-mail.',
        'Vi offentliggør ikke billeder eller video, hvor du optræder.',
        'Vi videregiver dit navn og din e-mailadresse til Madkassen Nord A/S',
        'sletter dem senest 24 måneder efter',
        'Samtykket er givet den 14. februar 2026.',
        'Billeder og video på hjemmesiden Billeder, video og fornavn Nej',
        'Videregivelse til Madkassen Nord A/S Navn og e-mailadresse Ja',
        'Den registrerede',
        'Navn: Henrik Østergaard',
      ],
    },
  ],
};
