import { Blocks } from '../kit/blocks.js';
import type { Look } from '../kit/look.js';
import { signatureBlocks } from '../kit/signatures.js';
import { factsTable } from '../kit/tables.js';
import { wordDocument } from '../kit/word-document.js';
import { field, tagInputs } from '../fields.js';
import type { LibraryDocument } from '../library-document.js';

const look: Look = {
  lang: 'da',
  wordLanguage: 'da-DK',
  body: 'Calibri',
  headings: 'Calibri',
  size: 11,
  accent: '1F3864',
  clauses: '§ %1',
  justify: true,
  delimiters: ['{', '}'],
};

const DATE = 'D. MMMM YYYY';

const fields = {
  employer_name: field.text('the employer, as registered'),
  employer_cvr: field.text('the employer’s CVR number'),
  employer_address: field.text('the employer’s registered address'),
  employee_name: field.text('the employee’s full name'),
  employee_address: field.text('the employee’s home address'),
  job_title: field.text('the position'),
  start_date: field.date(DATE, 'the first working day'),
  workplace: field.text('where the work is done'),
  duties: field.list('the main duties, one bullet each', {
    task: field.text('one duty'),
  }),
  weekly_hours: field.number('0.#', 'normal weekly hours, lunch excluded'),
  monthly_salary: field.number('#,##0.00', 'monthly base salary in DKK'),
  has_probation: field.flag('whether the first months are a probation period'),
  probation_months: field.number('0', 'length of the probation period (at most 3)'),
  has_pension: field.flag('whether the employee joins the company pension scheme'),
  pension_provider: field.text('the pension company'),
  pension_employer_percent: field.number('0.0', 'employer contribution, % of base salary'),
  pension_employee_percent: field.number('0.0', 'employee contribution, % of base salary'),
  salaried: field.flag('whether the Danish Salaried Employees Act (funktionærloven) applies'),
  signing_city: field.text('where the contract is signed'),
  signing_date: field.date(DATE, 'the date of signing'),
  employer_signatory_name: field.text('who signs for the employer'),
  employer_signatory_title: field.text('the employer signatory’s title'),
};

function document() {
  const b = new Blocks(look);
  return wordDocument({
    look,
    title: 'Ansættelseskontrakt',
    subject: 'Ansættelsesbevis',
    header: { left: '{employer_name}', right: 'Ansættelseskontrakt' },
    footer: 'Ansættelseskontrakt for {employee_name}',
    body: [
      b.title('Ansættelseskontrakt'),
      b.subtitle('Ansættelsesbevis efter lov om ansættelsesbeviser og visse arbejdsvilkår'),
      b.p('Mellem undertegnede parter er der dags dato indgået følgende aftale om ansættelse.'),
      b.h1('Parterne'),
      factsTable(look, [
        ['Arbejdsgiver', ['**{employer_name}**', 'CVR-nr. {employer_cvr}', '{employer_address}']],
        ['Medarbejder', ['**{employee_name}**', '{employee_address}']],
      ]),
      b.h1('Tiltrædelse og stilling'),
      b.clause('Medarbejderen tiltræder den **{start_date}** i stillingen som {job_title}.'),
      b.clause(
        'Arbejdsstedet er {workplace}. Arbejdsgiveren kan med rimeligt varsel henvise medarbejderen til at udføre arbejde fra andre af arbejdsgiverens adresser i Danmark, når arbejdets karakter tilsiger det.',
      ),
      b.clause('Medarbejderens væsentligste arbejdsopgaver er:'),
      b.loop('duties', b.bullets('{task}')),
      b.clause(
        'Medarbejderen udfører desuden andre opgaver, der naturligt hører under stillingen, og som arbejdsgiveren med rimelighed kan pålægge medarbejderen.',
      ),
      b.h1('Prøvetid'),
      b.when(
        'has_probation',
        b.clause(
          'De første {probation_months} måneder af ansættelsen er prøvetid. I prøvetiden kan ansættelsesforholdet af begge parter opsiges med 14 dages varsel til fratræden en hvilken som helst dag.',
        ),
        b.clause('Prøvetiden kan ikke forlænges ud over 3 måneder fra tiltrædelsen.'),
      ),
      b.unless(
        'has_probation',
        b.clause(
          'Der er ikke aftalt prøvetid. Ansættelsen er på almindelige vilkår fra første dag.',
        ),
      ),
      b.h1('Arbejdstid'),
      b.clause(
        'Den normale ugentlige arbejdstid er {weekly_hours} timer eksklusive frokostpause. Arbejdstiden tilrettelægges efter aftale med nærmeste leder og inden for virksomhedens sædvanlige åbningstid.',
      ),
      b.clause(
        'Medarbejderen må påregne at arbejde ud over den normale arbejdstid, når arbejdets udførelse kræver det. {#salaried}Merarbejde er inkluderet i lønnen, medmindre andet aftales skriftligt i det enkelte tilfælde.{/salaried}{^salaried}Merarbejde afspadseres eller honoreres med timeløn med et tillæg på 50 procent.{/salaried}',
      ),
      b.h1('Løn'),
      b.clause(
        'Den månedlige grundløn udgør **{monthly_salary} kr.** Lønnen udbetales månedsvis bagud, så den er til rådighed på månedens sidste bankdag.',
      ),
      b.clause(
        'Lønnen tages op til forhandling én gang årligt med virkning fra 1. april, første gang i det kalenderår, der følger efter tiltrædelsen. Der er hermed ikke givet tilsagn om lønstigning.',
      ),
      b.h1('Pension'),
      b.when(
        'has_pension',
        b.clause(
          'Medarbejderen optages i arbejdsgiverens pensionsordning i {pension_provider}. Arbejdsgiveren indbetaler {pension_employer_percent} % og medarbejderen {pension_employee_percent} % af den til enhver tid gældende grundløn. Medarbejderens bidrag tilbageholdes i lønnen.',
        ),
        b.clause(
          'Ordningen omfatter forsikring ved tab af erhvervsevne og ved død efter pensionsselskabets gældende vilkår.',
        ),
      ),
      b.unless('has_pension', b.clause('Der er ikke knyttet en pensionsordning til ansættelsen.')),
      b.h1('Ferie og fridage'),
      b.clause(
        'Medarbejderen har ret til ferie efter ferielovens regler, herunder 25 feriedage om året. Ferien optjenes med 2,08 dage pr. måneds ansættelse og afholdes efter aftale med nærmeste leder.',
      ),
      b.clause(
        'Medarbejderen har herudover ret til fem feriefridage pr. ferieår. Feriefridage, der ikke er afholdt ved ferieårets udløb, bortfalder uden kompensation.',
      ),
      b.clause('Juleaftensdag, nytårsaftensdag og grundlovsdag er fridage med løn.'),
      b.h1('Sygdom'),
      b.clause(
        'Ved sygdom giver medarbejderen besked til nærmeste leder hurtigst muligt og senest ved arbejdstidens begyndelse på første sygedag. Arbejdsgiveren kan forlange lægeerklæring efter de regler, der gælder herfor.',
      ),
      b.clause(
        '{#salaried}Under sygdom får medarbejderen fuld løn efter funktionærlovens regler.{/salaried}{^salaried}Under sygdom ydes sygedagpenge efter sygedagpengelovens regler.{/salaried}',
      ),
      b.h1('Opsigelse'),
      b.when(
        'salaried',
        b.clause(
          'Ansættelsesforholdet er omfattet af lov om retsforholdet mellem arbejdsgivere og funktionærer (funktionærloven). Arbejdsgiveren kan opsige med de varsler, der følger af funktionærlovens § 2, og medarbejderen med én måneds varsel til udgangen af en måned.',
        ),
      ),
      b.unless(
        'salaried',
        b.clause(
          'Medarbejderen er ikke omfattet af funktionærloven. Efter prøvetiden kan arbejdsgiveren opsige ansættelsesforholdet med én måneds varsel og medarbejderen med 14 dages varsel, i begge tilfælde til fratræden en hvilken som helst dag.',
        ),
      ),
      b.clause('Opsigelse skal ske skriftligt.'),
      b.h1('Tavshedspligt'),
      b.clause(
        'Medarbejderen har tavshedspligt om alt, hvad medarbejderen i forbindelse med ansættelsen får kendskab til om arbejdsgiverens og dennes kunders forhold, og som efter sin natur bør holdes hemmeligt. Tavshedspligten gælder også efter ansættelsens ophør.',
      ),
      b.clause(
        'Ved fratræden tilbageleverer medarbejderen alt materiale, udstyr og alle dokumenter, der tilhører arbejdsgiveren, herunder kopier og elektroniske filer.',
      ),
      b.h1('Øvrige vilkår'),
      b.clause('Ansættelsesforholdet er ikke omfattet af en kollektiv overenskomst.'),
      b.clause(
        'Medarbejderen følger arbejdsgiverens til enhver tid gældende personalehåndbog og politikker, herunder for it-sikkerhed og behandling af personoplysninger.',
      ),
      b.clause(
        'Ændringer i væsentlige vilkår meddeles skriftligt senest den dag, ændringen får virkning. Kontrakten underskrives elektronisk, og den underskrevne elektroniske version er originalen.',
      ),
      b.h1('Underskrift'),
      b.p(
        'Parterne bekræfter med deres underskrift at have læst og accepteret kontraktens vilkår.',
        { keepNext: true },
      ),
      b.p('{signing_city}, den {signing_date}', { keepNext: true, spacing: { before: 240 } }),
      signatureBlocks(look, [
        {
          role: 'For arbejdsgiveren',
          name: '{employer_signatory_name}',
          title: '{employer_signatory_title}',
          recipient: 1,
        },
        { role: 'Medarbejderen', name: '{employee_name}', title: '{job_title}', recipient: 2 },
      ]),
    ],
  });
}

const salaried = {
  employer_name: 'Nordlys Software ApS',
  employer_cvr: '41 23 45 67',
  employer_address: 'Åboulevarden 22, 8000 Aarhus C',
  employee_name: 'Mette Sørensen',
  employee_address: 'Vestergade 3, 2. th., 8000 Aarhus C',
  job_title: 'Senior softwareudvikler',
  start_date: '2025-08-01',
  workplace: 'Åboulevarden 22, 8000 Aarhus C',
  duties: [
    { task: 'Udvikling og vedligeholdelse af virksomhedens signeringsplatform' },
    { task: 'Kodegennemgang og faglig sparring med teamets øvrige udviklere' },
    { task: 'Deltagelse i vagtordning for driften efter nærmere aftale' },
  ],
  weekly_hours: 37,
  monthly_salary: 52500,
  has_probation: true,
  probation_months: 3,
  has_pension: true,
  pension_provider: 'PFA Pension',
  pension_employer_percent: 8,
  pension_employee_percent: 4,
  salaried: true,
  signing_city: 'Aarhus',
  signing_date: '2025-06-12',
  employer_signatory_name: 'Lars Kjær',
  employer_signatory_title: 'Administrerende direktør',
};

const hourly = {
  employer_name: 'Café Havnely I/S',
  employer_cvr: '38 77 10 52',
  employer_address: 'Havnepladsen 4, 5700 Svendborg',
  employee_name: 'Jonas Ahmadi',
  employee_address: 'Møllergade 61, 1. tv., 5700 Svendborg',
  job_title: 'Tjener',
  start_date: '2025-05-01',
  workplace: 'Havnepladsen 4, 5700 Svendborg',
  duties: [
    { task: 'Servering og betjening af gæster' },
    { task: 'Åbning og lukning af caféen efter vagtplan' },
  ],
  weekly_hours: 22.5,
  monthly_salary: 17980.5,
  has_probation: false,
  has_pension: false,
  salaried: false,
  signing_city: 'Svendborg',
  signing_date: '2025-04-22',
  employer_signatory_name: 'Sofie Holm',
  employer_signatory_title: 'Indehaver',
};

export const ansaettelseskontrakt: LibraryDocument = {
  id: 'ansaettelseskontrakt',
  meta: {
    name: 'Ansættelseskontrakt',
    description:
      'Employment contract (Danish) for a salaried or an hourly employee: optional probation and pension, overtime, sickness and notice by whether funktionærloven applies; the duties are a list.',
    locale: 'da',
    timeZone: 'Europe/Copenhagen',
    signers: [
      { role: 'the employer’s signatory', name: 'employer_signatory_name' },
      { role: 'the employee', name: 'employee_name' },
    ],
    fields,
  },
  document,
  fixtures: [
    {
      name: 'funktionaer',
      tags: tagInputs(fields, salaried),
      expected: [
        'Nordlys Software ApS',
        'CVR-nr. 41 23 45 67',
        'Medarbejderen tiltræder den 1. august 2025 i stillingen som Senior softwareudvikler.',
        'Udvikling og vedligeholdelse af virksomhedens signeringsplatform',
        'Deltagelse i vagtordning for driften efter nærmere aftale',
        'De første 3 måneder af ansættelsen er prøvetid.',
        'Den normale ugentlige arbejdstid er 37 timer',
        'Merarbejde er inkluderet i lønnen',
        'Den månedlige grundløn udgør 52.500,00 kr.',
        'pensionsordning i PFA Pension. Arbejdsgiveren indbetaler 8,0 % og medarbejderen 4,0 %',
        'fuld løn efter funktionærlovens regler',
        'omfattet af lov om retsforholdet mellem arbejdsgivere og funktionærer',
        'Aarhus, den 12. juni 2025',
        'Navn: Lars Kjær',
        'Titel: Administrerende direktør',
        'Ansættelseskontrakt for Mette Sørensen',
      ],
    },
    {
      name: 'timeloennet',
      tags: tagInputs(fields, hourly),
      expected: [
        'Café Havnely I/S',
        'Medarbejderen tiltræder den 1. maj 2025 i stillingen som Tjener.',
        'Servering og betjening af gæster',
        'Åbning og lukning af caféen efter vagtplan',
        'Der er ikke aftalt prøvetid.',
        'Den normale ugentlige arbejdstid er 22,5 timer',
        'Merarbejde afspadseres eller honoreres med timeløn',
        'Den månedlige grundløn udgør 17.980,50 kr.',
        'Der er ikke knyttet en pensionsordning til ansættelsen.',
        'Under sygdom ydes sygedagpenge',
        'Medarbejderen er ikke omfattet af funktionærloven.',
        'Svendborg, den 22. april 2025',
        'Navn: Jonas Ahmadi',
      ],
    },
  ],
};
