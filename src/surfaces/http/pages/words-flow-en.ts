/**
 * The words of the web-flow answer page (`/flow/{token}`, issue 36), in English: the `flow`
 * section of words-en.ts, in a file of its own so that the page and its words change together.
 * words-flow-da.ts has the same keys (its type is this one's).
 */
export const FLOW_EN = {
  from: 'From {name}, {company}',
  progress: '{answered} of {total} questions answered',
  saved:
    'Saved. {answered} of {total} questions answered: you can leave and come back to this page.',
  intro: 'Answer what you can. Save keeps your answers; Send answers sends them when you are done.',
  required: 'required',
  yes: 'Yes',
  no: 'No',
  choose: 'Choose…',
  save: 'Save',
  send: 'Send answers',
  numberHint: 'A number, such as 1,200.50',
  dateHint: 'A date',
  cprHint: '10 digits: DDMMYY-XXXX',
  cprSaved: 'A CPR number is saved. It is not shown; leave the field empty to keep it.',
  phoneHint: 'Digits, with + and spaces if you like',
  thanksTitle: 'Thank you',
  thanks: 'Your answers have been sent to {name}. You can close this page.',
  thanksSent: 'Your answers have been sent. You can close this page.',
  problem: {
    text: 'The answer is too long.',
    number: 'Write a number, such as 1,200.50.',
    date: 'Write a date that exists.',
    boolean: 'Choose yes or no.',
    choice: 'Choose one of the choices.',
    email: 'Write an e-mail address, such as name@example.com.',
    phone: 'Write a phone number of 6 to 15 digits.',
    cpr: 'Write a CPR number of 10 digits whose first six are a date (DDMMYY).',
    required: 'Answer this question before sending.',
  },
  problemOf: '{question}: {problem}',
  cprUnavailable:
    'This service cannot take CPR numbers right now. Save the other answers and try again later.',
} as const;
