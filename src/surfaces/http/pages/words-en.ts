/**
 * Every text of the pages a person sees (dashboard, sign-up, log-in, operator), in English. The
 * Danish catalogue (words-da.ts) has exactly the same keys: its type is this one's, so a key
 * missing there does not compile, and test/unit/page-words.test.ts compares both ways and checks
 * that each text has the same `{placeholders}` in both. One section per page area; a page's words
 * are in its area's section. The English names of controls are also what tests drive pages by:
 * keep them.
 */
export const EN = {
  common: {
    product: 'docpipe',
    skipToContent: 'Skip to content',
    mainNavigation: 'Main navigation',
    language: 'Language',
    switchLanguage: 'Dansk',
    switchLanguageLabel: 'Skift til dansk',
    testBanner: 'Test environment: signatures have no legal effect',
    cases: 'Cases',
    apiKeys: 'API keys',
    webhooks: 'Webhooks',
    members: 'Members',
    settings: 'Settings',
    logOut: 'Log out',
    loggedInAs: 'Logged in as {name}',
    company: 'Company',
    switchCompany: 'Switch company',
    save: 'Save',
    cancel: 'Cancel',
    delete: 'Delete',
    confirm: 'Confirm',
    copy: 'Copy',
    copied: 'Copied',
    close: 'Close',
    never: 'Never',
    yes: 'Yes',
    no: 'No',
    errorSummary: 'There is a problem',
    notFoundTitle: 'Page not found',
    notFound: 'There is nothing here. It may have been removed, or the address is not complete.',
    forbiddenTitle: 'Only admins can open this page',
    forbidden: 'Ask an admin of {company} to make you an admin, or to do this for you.',
    csrfTitle: 'The form was too old',
    csrf: 'The page was open too long, or it came from another site. Go back, reload the page and send it again.',
    tooManyTitle: 'Too many tries',
    tooMany: 'Wait {seconds} seconds and try again.',
    failedTitle: 'Something went wrong',
    failed: 'The page could not be shown. Try again in a moment.',
    backToDashboard: 'Back to the dashboard',
    requiredField: 'Required',
  },
  account: {},
  security: {},
  home: {},
  keys: {},
  webhooks: {},
  members: {},
  settings: {},
  admin: {},
} as const;

/** A catalogue's shape with its texts as any string: what each language must have. */
type Texts<T> = { readonly [K in keyof T]: T[K] extends string ? string : Texts<T[K]> };
export type Words = Texts<typeof EN>;
