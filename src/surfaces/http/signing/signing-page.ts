import { writtenDateTime, writtenLanguage } from '../../../base/util/index.js';
import type { SignedReceipt, SigningSession, UnsentLink } from '../../../service/signing/index.js';

/**
 * The server's words on the signing pages: the shell before its script has run, and the pages
 * that need no script (a dead link, a used link's receipt, a failure, the eID's thank-you). The words of the page itself
 * are in assets/signing/signing.js. A case in another language gets English.
 */
const WORDS = {
  da: {
    testBanner: 'Testmiljø: underskrifter har ingen retsvirkning',
    loading: 'Indlæser dokumenterne …',
    noScript:
      'Siden kræver JavaScript for at vise dokumenterne og tage imod din underskrift. Slå JavaScript til, eller åbn linket i en anden browser.',
    notFoundTitle: 'Linket virker ikke',
    notFound:
      'Dette link åbner ikke noget. Det kan allerede være brugt til at underskrive, sagen kan være lukket, eller linket er ikke kopieret helt. Skal du stadig underskrive, så bed afsenderen om et nyt link.',
    failedTitle: 'Siden kan ikke vises lige nu',
    failed: 'Prøv igen om lidt.',
    tooManyTitle: 'For mange forsøg',
    tooMany:
      'Der er prøvet for mange links, der ikke virker, fra din forbindelse. Vent et minut, og prøv igen.',
    doneTitle: 'Tak for din underskrift',
    done: 'Din underskrift er modtaget. Du kan lukke siden.',
    signedTitle: 'Du har underskrevet',
    signedOn: 'Du underskrev »{title}« den {date}.',
    signedStage: {
      waiting: 'Sagen venter nu på, at de andre underskriver.',
      sealing: 'Alle har underskrevet, og dokumenterne bliver forseglet nu.',
      sealed: 'Alle har underskrevet, og dokumenterne er forseglet, så de ikke kan ændres.',
    },
    signedStageByReference: {
      waiting: 'Sagen venter nu på, at de andre underskriver.',
      sealing:
        'Alle har underskrevet. Dokumenter givet som link er underskrevet med henvisning til linket og forsegles ikke; eventuelle andre bliver forseglet nu.',
      sealed:
        'Alle har underskrevet. Dokumenter givet som link er underskrevet med henvisning til linket og ikke forseglet; eventuelle andre er forseglet, så de ikke kan ændres.',
    },
    signedCopy: {
      email: {
        waiting: 'Når alle har underskrevet, får du den underskrevne kopi på e-mail.',
        sealing: 'Den underskrevne kopi sendes til dig på e-mail, så snart den er forseglet.',
        sealed: 'Den underskrevne kopi er sendt til dig på e-mail.',
      },
      eboks: {
        waiting: 'Når alle har underskrevet, får du den underskrevne kopi i e-Boks.',
        sealing: 'Den underskrevne kopi sendes til dig i e-Boks, så snart den er forseglet.',
        sealed: 'Den underskrevne kopi er sendt til dig i e-Boks.',
      },
      sms: {
        waiting: 'Når alle har underskrevet, får du besked på SMS.',
        sealing: 'Du får besked på SMS, så snart dokumenterne er forseglet.',
        sealed: 'Du har fået besked på SMS.',
      },
    },
    signedAsk: 'Har du brug for en kopi eller spørgsmål til sagen, så skriv til {sender}.',
    signedClose: 'Linket kan ikke bruges igen. Du kan lukke siden.',
    unsentTitle: 'Sagen er ikke sendt endnu',
    unsent:
      '»{title}« er gjort klar af {sender}, men ikke sendt til underskrift endnu. Når den er sendt, åbner dette link sagen, og du får besked.',
    eidTitle: 'Underskriften med eID blev ikke gennemført',
    eidAgain: 'Åbn dit link til underskrift igen for at prøve igen.',
    eid: {
      cancelled: 'Login med eID blev afbrudt.',
      mismatch:
        'Login med eID passer ikke til modtageren: CPR-nummeret er ikke det, afsenderen har angivet.',
      unavailable: 'eID-tjenesten svarer ikke lige nu. Prøv igen om et par minutter.',
      failed: 'Login med eID kunne ikke bruges.',
      closed: 'Sagen er ikke længere åben for underskrift.',
      elsewhere:
        'Login med eID kom tilbage til en anden browser end den, det blev startet i, så intet blev underskrevet. Åbn dit link til underskrift i denne browser, og start login igen.',
    },
  },
  en: {
    testBanner: 'Test environment: signatures have no legal effect',
    loading: 'Loading the documents …',
    noScript:
      'This page needs JavaScript to show the documents and take your signature. Turn JavaScript on, or open the link in another browser.',
    notFoundTitle: 'This link does not work',
    notFound:
      'This link does not open anything. It may have been used to sign already, its case may be closed, or it was not copied whole. If you still need to sign, ask the sender for a new link.',
    failedTitle: 'The page cannot be shown right now',
    failed: 'Please try again in a moment.',
    tooManyTitle: 'Too many tries',
    tooMany:
      'Too many signing links that do not work were tried from your connection. Wait a minute and try again.',
    doneTitle: 'Thank you for signing',
    done: 'Your signature has been received. You can close this page.',
    signedTitle: 'You have signed',
    signedOn: 'You signed “{title}” on {date}.',
    signedStage: {
      waiting: 'The case is now waiting for the others to sign.',
      sealing: 'Everyone has signed, and the documents are being sealed now.',
      sealed: 'Everyone has signed, and the documents are sealed so that they cannot be changed.',
    },
    signedStageByReference: {
      waiting: 'The case is now waiting for the others to sign.',
      sealing:
        'Everyone has signed. Documents given by link were signed by reference to the link and are not sealed; any others are being sealed now.',
      sealed:
        'Everyone has signed. Documents given by link were signed by reference to the link and are not sealed; any others are sealed so that they cannot be changed.',
    },
    signedCopy: {
      email: {
        waiting: 'When everyone has signed, you will receive the signed copy by e-mail.',
        sealing: 'The signed copy will be sent to you by e-mail as soon as it is sealed.',
        sealed: 'The signed copy has been sent to you by e-mail.',
      },
      eboks: {
        waiting: 'When everyone has signed, you will receive the signed copy in e-Boks.',
        sealing: 'The signed copy will be sent to you in e-Boks as soon as it is sealed.',
        sealed: 'The signed copy has been sent to you in e-Boks.',
      },
      sms: {
        waiting: 'When everyone has signed, you will be told by text message.',
        sealing: 'You will be told by text message as soon as the documents are sealed.',
        sealed: 'You have been told by text message.',
      },
    },
    signedAsk: 'For a copy, or questions about the case, write to {sender}.',
    signedClose: 'The link cannot be used again. You can close this page.',
    unsentTitle: 'This case has not been sent yet',
    unsent:
      '“{title}” has been prepared by {sender} but not sent for signing yet. Once it is sent, this link opens it, and you will be told.',
    eidTitle: 'Signing with eID did not finish',
    eidAgain: 'Open your signing link again to try again.',
    eid: {
      cancelled: 'The eID login was cancelled.',
      mismatch:
        'The eID login does not match the recipient: the CPR number is not the one the sender gave.',
      unavailable: 'The eID service does not answer right now. Try again in a few minutes.',
      failed: 'The eID login could not be used.',
      closed: 'The case is no longer open for signing.',
      elsewhere:
        'The eID login came back to another browser than the one it was started in, so nothing was signed. Open your signing link in this browser and start the login again.',
    },
  },
} as const;

type Words = (typeof WORDS)[keyof typeof WORDS];

/** Pages shown per document: a page image each, drawn on request; past this, a note. */
export const MAX_SHOWN_PAGES = 100;

/** Where the page's script, the signature pad and the stylesheet are served (signing-assets.ts). */
export const ASSETS_PATH = '/sign/assets';

/**
 * The answer headers of every signing page, image and asset: no third party, no inline script or
 * style (the page's script sets positions through CSSOM, which style-src does not govern), no
 * referrer, no cache. `img-src 'self'` only: the page shows its own page images and logo, and the
 * signature pad draws on a canvas and exports it without loading an image (no `data:`, no
 * `blob:`). `form-action 'self'`: an eID login starts by navigating to this service.
 */
export const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * The language of a page that knows no case (a link that opens nothing, the thank-you page):
 * `lang` when it is one the pages have, else the browser's first choice, else English.
 */
export function pageLanguage(lang: string | undefined, accept: string | undefined): 'da' | 'en' {
  if (lang === 'da' || lang === 'en') return lang;
  const first = /^\s*([A-Za-z]{2})/.exec(accept ?? '')?.[1]?.toLowerCase();
  return first === 'da' ? 'da' : 'en';
}

export function wordsFor(language: string | undefined): Words {
  return WORDS[writtenLanguage(language)];
}

/**
 * A signing page of the test environment (DOCPIPE_ENVIRONMENT=test) with its banner above the
 * page, in the page's language: a recipient must not take a test signature for a real one. The
 * banner sits outside `<main id="app">`, which the page's script fills.
 */
export function withTestBanner(html: string): string {
  const lang = /<html lang="([^"]+)"/.exec(html)?.[1];
  const banner = `<div class="test-banner" role="note">${escapeHtml(wordsFor(lang).testBanner)}</div>`;
  return html.replace('<body>', `<body>${banner}`);
}

/** Text for HTML content and quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * The recipient's page: a shell in the case's language with the case's title, which loads the
 * page's script; the script asks the page's JSON API (`/sign/{token}/api`, the page's own path
 * plus `/api`) for everything else. Nothing of the case but its title and language is in it.
 */
export function signingPage(session: Pick<SigningSession, 'title' | 'language'>): string {
  const w = wordsFor(session.language);
  return layout(
    session.language,
    session.title,
    `<h1>${escapeHtml(session.title)}</h1>
<p class="meta" id="loading">${escapeHtml(w.loading)}</p>
<noscript><p class="problem">${escapeHtml(w.noScript)}</p></noscript>`,
    [`${ASSETS_PATH}/signature_pad.js`, `${ASSETS_PATH}/signing.js`],
  );
}

/** The page for a token that opens nothing, a failure, too many misses, or the eID's thank-you. */
export function messagePage(
  kind: 'notFound' | 'failed' | 'tooMany' | 'done',
  language?: string,
): string {
  const w = wordsFor(language);
  const title = w[`${kind}Title`];
  return layout(
    language ?? 'en',
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(w[kind])}</p>`,
    [],
  );
}

/**
 * What a link shows its recipient once they have signed with it (readSignedReceipt): what and
 * when they signed (the time in the installation's zone, with its offset, as the e-mails write
 * dates), where the case stands, how the signed copy reaches them, and whom to ask. No script:
 * there is nothing left to do on it.
 */
export function receiptPage(receipt: SignedReceipt, timeZone: string): string {
  const language = writtenLanguage(receipt.language);
  const w = WORDS[language];
  const fill = (text: string, values: Record<string, string>) =>
    text.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
  const sender = `${receipt.sender.name} (${receipt.sender.email})`;
  const lines = [
    fill(w.signedOn, {
      title: receipt.title,
      date: writtenDateTime(receipt.signedAt, language, timeZone),
    }),
    // A document kept by reference is never sealed: the page does not say it is.
    `${(receipt.byReference ? w.signedStageByReference : w.signedStage)[receipt.stage]} ${w.signedCopy[receipt.channel][receipt.stage]}`,
    fill(w.signedAsk, { sender }),
    w.signedClose,
  ];
  return layout(
    receipt.language,
    w.signedTitle,
    `<h1>${escapeHtml(w.signedTitle)}</h1>\n${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}`,
    [],
    'done',
  );
}

/** The page a draft's link opens until the draft is sent (unsent-link.ts). */
export function unsentPage(link: UnsentLink): string {
  const w = WORDS[writtenLanguage(link.language)];
  // One pass, so that a title holding `{sender}` stays as written.
  const values: Record<string, string> = {
    title: link.title,
    sender: `${link.sender.name} (${link.sender.email})`,
  };
  const text = w.unsent.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
  return layout(
    link.language,
    w.unsentTitle,
    `<h1>${escapeHtml(w.unsentTitle)}</h1>\n<p>${escapeHtml(text)}</p>`,
    [],
  );
}

/** What an eID login that did not sign comes back with (`/sign/done?eid=...`). */
export type EidOutcome = keyof Words['eid'];

/**
 * The page an eID login comes back to when it has no signing page to go back to: thanks after a
 * signature (`eid` absent or `signed`), else why it did not sign.
 */
export function donePage(language: string, eid?: string): string {
  const w = wordsFor(language);
  if (eid === undefined || eid === 'signed' || !Object.hasOwn(w.eid, eid))
    return messagePage('done', language);
  return layout(
    language,
    w.eidTitle,
    `<h1>${escapeHtml(w.eidTitle)}</h1><p>${escapeHtml(w.eid[eid as EidOutcome])}</p><p>${escapeHtml(w.eidAgain)}</p>`,
    [],
  );
}

function layout(
  language: string,
  title: string,
  body: string,
  scripts: string[],
  mainClass?: string,
): string {
  const lang = /^[A-Za-z-]{2,12}$/.test(language) ? language : 'en';
  // defer: in order, after the document is parsed; signature_pad first, as signing.js uses it.
  const scriptTags = scripts.map((src) => `<script src="${escapeHtml(src)}" defer></script>\n`);
  return `<!doctype html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${ASSETS_PATH}/signing.css">
${scriptTags.join('')}</head>
<body><main id="app"${mainClass ? ` class="${escapeHtml(mainClass)}"` : ''}>
${body}
</main></body>
</html>
`;
}
