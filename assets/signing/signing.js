/*
 * docpipe's signing page, in the browser: plain JavaScript, no build step, served from
 * /sign/assets/signing.js under a Content-Security-Policy with no inline script or style.
 *
 * The page's HTML is a shell; this script asks the page's JSON API (the page's own path + /api)
 * for the case, and builds everything from it. Every value from the API is set as text
 * (textContent, text nodes, attributes), never as markup. Positions are set through CSSOM
 * (element.style), which the policy's style-src does not govern.
 */
(function () {
  'use strict';

  const WORDS = {
    en: {
      loading: 'Loading the documents …',
      from: 'From',
      signingAs: 'You sign as',
      recipient: 'Recipient',
      copyOnly: 'You receive a copy of these documents; there is nothing for you to sign.',
      expires: 'Sign by',
      logo: 'Logo',
      todoHeading: 'What to do',
      todoRead: 'Read the documents below: scroll through each one to its last page.',
      todoSign: 'Then sign at the bottom of the page.',
      waiting: 'It is not your turn to sign yet. The case is waiting for:',
      waitingLater: 'Open this link again when they have signed.',
      documents: 'Documents',
      page: 'Page {n} of {total}',
      pageAlt: '{name}, page {n} of {total}',
      mustRead: 'Read to the last page before signing',
      read: 'Read',
      notShown: 'This document cannot be shown here.',
      openLink: 'Open the document',
      newWindow: '(opens in a new window)',
      morePages: 'Only the first {n} of {total} pages are shown here.',
      placesOnPage: 'Your places on this page: {list}',
      place: {
        sign: 'Sign here',
        initials: 'Initials here',
        name: 'Your name here',
        date: 'Date here',
      },
      signHeading: 'Sign',
      readFirst: 'Read every document to its last page first: {n} of {total} read.',
      readAll: 'You have read the documents.',
      drawLabel: 'Draw your signature in the box with your finger, a pen or the mouse.',
      pad: 'Signature pad',
      clear: 'Clear',
      typeInstead: 'Type your name instead',
      drawInstead: 'Draw instead',
      typedLabel: 'Type your name as the case has it: {name}',
      typedHint: 'You may add middle names. Your typed name is your signature.',
      signButton: 'Sign the documents',
      eidHeading: 'Sign with an electronic ID',
      eidOr: 'Or sign with an electronic ID',
      eidButton: 'Sign with {scheme}',
      needsCpr: 'You will be asked for your CPR number.',
      emptyPad: 'Draw your signature first, or type your name instead.',
      emptyName: 'Type your name first.',
      signing: 'Signing …',
      signedHeading: 'Thank you. You have signed.',
      signedAll: 'Everyone has signed now.',
      signedOthers: 'The case now waits for the others who sign.',
      closePage: 'You can close this page.',
      redirecting: 'Taking you on …',
      denyButton: 'Decline to sign',
      denyHeading: 'Decline to sign',
      denyText:
        'When you decline, the case ends for everyone. Tell the sender why; they see your reason.',
      reason: 'Reason',
      denyConfirm: 'Decline',
      cancel: 'Cancel',
      emptyReason: 'Write a reason first.',
      denying: 'Declining …',
      deniedHeading: 'You have declined to sign.',
      deniedText: 'The sender will see your reason. You can close this page.',
      notFoundTitle: 'This link does not work',
      notFound:
        'This signing link does not open anything: it may be mistyped or already used, or its case may be closed. Ask the sender for a new link.',
      tooMany: 'Too many tries from your connection. Wait {n} seconds and try again.',
      csrf: 'This page is out of date. Reload it and try again.',
      messageFrom: 'Message from {name}',
      messageToYou: 'To you',
      refused: {
        name: 'That name cannot be your signature. Type your name as the case has it: {name} (you may add middle names). If someone else should sign, ask the sender to change the case.',
        image: 'The drawing cannot be used. Clear the box and draw your signature again.',
        documentsRead: 'Read every document to its last page before you sign.',
        method: 'This case cannot be signed that way. Use one of the ways offered on this page.',
        reason: 'The reason cannot be used. Write it in plain text, at most 1,000 characters.',
        other: 'That could not be used. Reload the page and try again.',
      },
      identity: 'The eID login does not match you, so nothing was signed.',
      notYourTurn: 'It is not your turn yet. The case is waiting for: {names}.',
      network: 'No answer from the server. Check your connection and try again.',
      failed: 'Something went wrong on our side. Try again in a moment.',
      retry: 'Try again',
      list: { and: 'and' },
      eid: {
        cancelled: 'The eID login was cancelled. You can try again.',
        mismatch:
          'The eID login does not match you: the CPR number is not the one the sender gave.',
        unavailable: 'The eID service does not answer right now. Try again in a few minutes.',
        failed: 'The eID login could not be used. Try again.',
        elsewhere:
          'The eID login came back to another browser than the one it was started in, so nothing was signed. Start it again here.',
      },
    },
    da: {
      loading: 'Indlæser dokumenterne …',
      from: 'Fra',
      signingAs: 'Du underskriver som',
      recipient: 'Modtager',
      copyOnly: 'Du modtager en kopi af dokumenterne; du skal ikke underskrive.',
      expires: 'Underskriv senest',
      logo: 'Logo',
      todoHeading: 'Sådan gør du',
      todoRead: 'Læs dokumenterne herunder: rul gennem hvert dokument til sidste side.',
      todoSign: 'Underskriv derefter nederst på siden.',
      waiting: 'Det er ikke din tur til at underskrive endnu. Sagen venter på:',
      waitingLater: 'Åbn linket igen, når de har underskrevet.',
      documents: 'Dokumenter',
      page: 'Side {n} af {total}',
      pageAlt: '{name}, side {n} af {total}',
      mustRead: 'Læs til sidste side før underskrift',
      read: 'Læst',
      notShown: 'Dokumentet kan ikke vises her.',
      openLink: 'Åbn dokumentet',
      newWindow: '(åbner i et nyt vindue)',
      morePages: 'Kun de første {n} af {total} sider vises her.',
      placesOnPage: 'Dine felter på denne side: {list}',
      place: {
        sign: 'Underskriv her',
        initials: 'Initialer her',
        name: 'Dit navn her',
        date: 'Dato her',
      },
      signHeading: 'Underskriv',
      readFirst: 'Læs først hvert dokument til sidste side: {n} af {total} læst.',
      readAll: 'Du har læst dokumenterne.',
      drawLabel: 'Tegn din underskrift i feltet med fingeren, en pen eller musen.',
      pad: 'Underskriftsfelt',
      clear: 'Ryd',
      typeInstead: 'Skriv dit navn i stedet',
      drawInstead: 'Tegn i stedet',
      typedLabel: 'Skriv dit navn, som det står i sagen: {name}',
      typedHint: 'Du må gerne tilføje mellemnavne. Dit skrevne navn er din underskrift.',
      signButton: 'Underskriv dokumenterne',
      eidHeading: 'Underskriv med elektronisk ID',
      eidOr: 'Eller underskriv med elektronisk ID',
      eidButton: 'Underskriv med {scheme}',
      needsCpr: 'Du bliver bedt om dit CPR-nummer.',
      emptyPad: 'Tegn din underskrift først, eller skriv dit navn i stedet.',
      emptyName: 'Skriv dit navn først.',
      signing: 'Underskriver …',
      signedHeading: 'Tak. Du har underskrevet.',
      signedAll: 'Alle har nu underskrevet.',
      signedOthers: 'Sagen venter nu på de andre, der skal underskrive.',
      closePage: 'Du kan lukke siden.',
      redirecting: 'Du sendes videre …',
      denyButton: 'Afvis at underskrive',
      denyHeading: 'Afvis at underskrive',
      denyText:
        'Når du afviser, afsluttes sagen for alle. Fortæl afsenderen hvorfor; afsenderen ser din begrundelse.',
      reason: 'Begrundelse',
      denyConfirm: 'Afvis',
      cancel: 'Annuller',
      emptyReason: 'Skriv en begrundelse først.',
      denying: 'Afviser …',
      deniedHeading: 'Du har afvist at underskrive.',
      deniedText: 'Afsenderen ser din begrundelse. Du kan lukke siden.',
      notFoundTitle: 'Linket virker ikke',
      notFound:
        'Dette link til underskrift åbner ikke noget: det kan være skrevet forkert eller allerede brugt, eller sagen kan være lukket. Bed afsenderen om et nyt link.',
      tooMany: 'For mange forsøg fra din forbindelse. Vent {n} sekunder, og prøv igen.',
      csrf: 'Siden er forældet. Genindlæs den, og prøv igen.',
      messageFrom: 'Besked fra {name}',
      messageToYou: 'Til dig',
      refused: {
        name: 'Navnet kan ikke bruges som din underskrift. Skriv dit navn, som det står i sagen: {name} (du må gerne tilføje mellemnavne). Skal en anden underskrive, så bed afsenderen om at rette sagen.',
        image: 'Tegningen kan ikke bruges. Ryd feltet, og tegn din underskrift igen.',
        documentsRead: 'Læs hvert dokument til sidste side, før du underskriver.',
        method: 'Sagen kan ikke underskrives på den måde. Brug en af de måder, siden tilbyder.',
        reason: 'Begrundelsen kan ikke bruges. Skriv den som almindelig tekst, højst 1.000 tegn.',
        other: 'Det kunne ikke bruges. Genindlæs siden, og prøv igen.',
      },
      identity: 'Login med eID passer ikke til dig, så intet blev underskrevet.',
      notYourTurn: 'Det er ikke din tur endnu. Sagen venter på: {names}.',
      network: 'Intet svar fra serveren. Tjek din forbindelse, og prøv igen.',
      failed: 'Noget gik galt hos os. Prøv igen om lidt.',
      retry: 'Prøv igen',
      list: { and: 'og' },
      eid: {
        cancelled: 'Login med eID blev afbrudt. Du kan prøve igen.',
        mismatch:
          'Login med eID passer ikke til dig: CPR-nummeret er ikke det, afsenderen har angivet.',
        unavailable: 'eID-tjenesten svarer ikke lige nu. Prøv igen om et par minutter.',
        failed: 'Login med eID kunne ikke bruges. Prøv igen.',
        elsewhere:
          'Login med eID kom tilbage til en anden browser end den, det blev startet i, så intet blev underskrevet. Start det igen her.',
      },
    },
  };

  /** The most pixels the server takes of a drawn signature (signing-api-schema.ts). */
  const MAX_IMAGE = { width: 1600, height: 800 };
  /** The page images are drawn at 96 dpi; places are in PDF points (1/72 inch). */
  const POINTS_PER_PIXEL = 72 / 96;

  const main = document.getElementById('app');
  /** Why an eID login sent the signer back here (signing-eid-routes.ts), shown once. */
  const eidOutcome = new URLSearchParams(location.search).get('eid');
  if (eidOutcome !== null) history.replaceState(null, '', location.pathname);
  const pagePath = location.pathname.replace(/\/+$/, '');
  const api = pagePath + '/api';
  let lang = document.documentElement.lang.toLowerCase().startsWith('da') ? 'da' : 'en';
  let w = WORDS[lang];
  /** The recipient's name as the case has it: what a typed signature must be. */
  let recipientName = '';

  /** An element with attributes (never markup) and children (nodes or strings, as text). */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'class') e.className = value;
      else if (key.startsWith('on')) e.addEventListener(key.slice(2), value);
      else e.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children) if (child !== null && child !== undefined) e.append(child);
    return e;
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (_, key) => String(values[key]));
  }

  function listOf(names) {
    if (names.length <= 1) return names.join('');
    return names.slice(0, -1).join(', ') + ' ' + w.list.and + ' ' + names[names.length - 1];
  }

  /** A same-origin path from the API (an image, the logo, the eID start), or null. */
  function ownUrl(value) {
    if (typeof value !== 'string') return null;
    try {
      const url = new URL(value, location.href);
      return url.origin === location.origin ? url.href : null;
    } catch {
      return null;
    }
  }

  /** An http(s) URL, or null: what a link or a redirect may go to. */
  function webUrl(value) {
    if (typeof value !== 'string') return null;
    try {
      const url = new URL(value, location.href);
      return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
    } catch {
      return null;
    }
  }

  function schemeName(scheme) {
    if (/:mitid:business$/.test(scheme)) return lang === 'da' ? 'MitID Erhverv' : 'MitID Business';
    if (/:mitid(:|$)/.test(scheme)) return 'MitID';
    if (/:bankid$/.test(scheme)) return 'BankID';
    if (/:personalausweis$/.test(scheme)) return lang === 'da' ? 'tysk eID' : 'German eID';
    return scheme.split(':').pop() || scheme;
  }

  /** Shows `nodes` as the whole page, and moves focus to its heading for screen readers. */
  function replacePage(heading, ...nodes) {
    const h1 = el('h1', { tabindex: '-1' }, heading);
    main.replaceChildren(h1, ...nodes);
    main.removeAttribute('aria-busy');
    h1.focus();
    return h1;
  }

  // ------------------------------------------------------------------------------------------
  // The API

  /** What an answer of the API means to the signer: words, and a `kind` for the page's state. */
  async function problemOf(response) {
    let body = {};
    try {
      body = await response.json();
    } catch {
      // Not JSON (a proxy's page): the status says enough.
    }
    switch (body.error) {
      case 'signing-link-not-found':
        return { kind: 'gone', text: w.notFound };
      case 'too-many-requests':
        return {
          kind: 'wait',
          text: fill(w.tooMany, { n: Number(response.headers.get('retry-after')) || 60 }),
        };
      case 'csrf-token-invalid':
        return { kind: 'stale', text: w.csrf };
      case 'not-your-turn':
        return {
          kind: 'turn',
          text: fill(w.notYourTurn, {
            names: listOf(Array.isArray(body.waitingFor) ? body.waitingFor.map(String) : []),
          }),
        };
      case 'validation-failed': {
        // The API's messages are English, for its callers; the page says each field's problem
        // in its own words, in the case's language.
        const details = Array.isArray(body.details) ? body.details : [];
        const fields = [...new Set(details.map((d) => String(d.field).split(/[.[]/)[0]))];
        const said = fields.map((f) =>
          fill(Object.hasOwn(w.refused, f) ? w.refused[f] : w.refused.other, {
            name: recipientName,
          }),
        );
        return { kind: 'invalid', text: said.length > 0 ? said.join(' ') : w.refused.other };
      }
      case 'identity-mismatch':
        return { kind: 'other', text: w.identity };
      case 'not-signing':
        return { kind: 'other', text: w.copyOnly };
      default:
        if (response.status < 500) return { kind: 'other', text: w.refused.other };
        return { kind: 'other', text: w.failed };
    }
  }

  async function send(path, csrfToken, body) {
    let response;
    try {
      response = await fetch(api + path, {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'x-csrf-token': csrfToken,
        },
        body: JSON.stringify(body),
      });
    } catch {
      return { problem: { kind: 'network', text: w.network } };
    }
    if (!response.ok) return { problem: await problemOf(response) };
    return { answer: await response.json() };
  }

  async function load() {
    let response;
    try {
      response = await fetch(api, {
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      });
    } catch {
      return showLoadProblem({ kind: 'network', text: w.network });
    }
    if (!response.ok) return showLoadProblem(await problemOf(response));
    const session = await response.json();
    lang = String(session.case.language || '')
      .toLowerCase()
      .startsWith('da')
      ? 'da'
      : 'en';
    w = WORDS[lang];
    document.documentElement.lang = lang;
    render(session);
  }

  function showLoadProblem(problem) {
    if (problem.kind === 'gone') return replacePage(w.notFoundTitle, el('p', {}, problem.text));
    const retry = el('button', { type: 'button', onclick: () => location.reload() }, w.retry);
    replacePage(document.title, el('p', { class: 'problem', role: 'alert' }, problem.text), retry);
  }

  // ------------------------------------------------------------------------------------------
  // The page

  function render(session) {
    const c = session.case;
    const r = session.recipient;
    const documents = Array.isArray(session.documents) ? session.documents : [];
    const reading = readingTracker(documents);

    const header = el('header', { class: 'case' });
    const logo = ownUrl(c.logo);
    if (logo) header.append(el('img', { class: 'logo', src: logo, alt: w.logo }));
    const h1 = el('h1', { tabindex: '-1' }, c.title);
    header.append(h1);
    const facts = el('dl', { class: 'facts' });
    facts.append(el('dt', {}, w.from), el('dd', {}, c.sender.name + ' (' + c.sender.email + ')'));
    facts.append(
      el('dt', {}, r.signing ? w.signingAs : w.recipient),
      el('dd', { class: 'recipient' }, r.name),
    );
    // The server writes the day as the e-mails do (`31. december 2026`), in the installation's
    // zone, so that page and e-mail name the same day.
    if (typeof c.expiresOn === 'string' && c.expiresOn && r.signing)
      facts.append(el('dt', {}, w.expires), el('dd', {}, c.expiresOn));
    header.append(facts);
    recipientName = String(r.name || '');

    // The sender's words, as the invitation has them: text, its line breaks kept.
    const messages = [c.message, r.message].filter((m) => typeof m === 'string' && m.trim());
    let message = null;
    if (messages.length > 0) {
      message = el('section', { class: 'message', 'aria-labelledby': 'message-heading' });
      message.append(
        el('h2', { id: 'message-heading' }, fill(w.messageFrom, { name: c.sender.name })),
      );
      if (typeof c.message === 'string' && c.message.trim())
        message.append(el('p', { class: 'message-text' }, c.message));
      if (typeof r.message === 'string' && r.message.trim())
        message.append(el('h3', {}, w.messageToYou), el('p', { class: 'message-text' }, r.message));
    }

    const todo = el('section', { class: 'todo', 'aria-labelledby': 'todo-heading' });
    todo.append(el('h2', { id: 'todo-heading' }, w.todoHeading));
    if (!r.signing) {
      todo.append(el('p', {}, w.copyOnly));
    } else if (!session.mayAct) {
      const names = Array.isArray(session.waitingFor) ? session.waitingFor : [];
      todo.classList.add('waiting');
      todo.append(
        el('p', { class: 'waiting-for' }, w.waiting),
        el('ul', { class: 'names' }, ...names.map((n) => el('li', {}, String(n)))),
        el('p', {}, w.waitingLater),
      );
    } else {
      todo.append(el('ol', {}, el('li', {}, w.todoRead), el('li', {}, w.todoSign)));
    }

    const docs = el('section', { class: 'documents', 'aria-labelledby': 'documents-heading' });
    docs.append(el('h2', { id: 'documents-heading' }, w.documents));
    for (const d of documents) docs.append(documentView(d, reading));

    main.replaceChildren(header);
    if (eidOutcome && Object.hasOwn(w.eid, eidOutcome))
      main.append(el('p', { class: 'problem eid-outcome', role: 'alert' }, w.eid[eidOutcome]));
    if (message) main.append(message);
    main.append(todo, docs);
    if (r.signing && session.mayAct) main.append(signingView(session, reading));
    main.removeAttribute('aria-busy');
    reading.start();
  }

  function documentView(d, reading) {
    const section = el('article', { class: 'document', 'aria-labelledby': 'document-' + d.index });
    section.append(el('h3', { id: 'document-' + d.index }, d.name));
    const state = el('p', { class: 'read-state' });
    if (d.mustBeRead) {
      const mark = el('span', { class: 'must-read' }, w.mustRead);
      state.append(mark);
      reading.onRead(d.index, () => {
        mark.textContent = w.read;
        mark.className = 'is-read';
      });
    }
    section.append(state);

    const images = (Array.isArray(d.pageImages) ? d.pageImages : []).map(ownUrl).filter(Boolean);
    const link = webUrl(d.url);
    if (images.length === 0) {
      if (link) {
        const a = el(
          'a',
          { href: link, target: '_blank', rel: 'noopener noreferrer' },
          w.openLink + ' ',
          el('span', { class: 'visually-hidden' }, w.newWindow),
        );
        const read = () => reading.markRead(d.index);
        a.addEventListener('click', read);
        a.addEventListener('auxclick', read);
        section.append(el('p', {}, a));
      } else {
        section.append(el('p', {}, w.notShown));
        reading.watch(d.index, section);
      }
      return section;
    }
    const total = d.pages || images.length;
    const places = Array.isArray(d.places) ? d.places : [];
    let last = null;
    images.forEach((src, i) => {
      const n = i + 1;
      last = pageView(
        d,
        src,
        n,
        total,
        places.filter((p) => p.page === n),
      );
      section.append(last);
    });
    if (total > images.length)
      section.append(el('p', { class: 'meta' }, fill(w.morePages, { n: images.length, total })));
    reading.watch(d.index, last);
    return section;
  }

  function pageView(d, src, n, total, places) {
    const figure = el('figure', { class: 'page' });
    const sheet = el('div', { class: 'sheet' });
    const img = el('img', {
      src,
      alt: fill(w.pageAlt, { name: d.name, n, total }),
      loading: n === 1 ? 'eager' : 'lazy',
      decoding: 'async',
    });
    sheet.append(img);
    // The boxes repeat the caption's words for the eye: a screen reader has them once there.
    const boxes = places.map((p) => {
      const kind = w.place[p.kind] ? p.kind : 'sign';
      const label = el('span', {}, w.place[kind]);
      const box = el('div', { class: 'place place-' + kind, 'aria-hidden': 'true' }, label);
      sheet.append(box);
      return { box, label, rect: p.rect };
    });
    // A label is shown only inside its box, and only where it fits whole; the boxes scale with
    // the page, so each is measured again whenever its size changes (a phone turned, a zoom).
    const fitLabels = () => {
      for (const { box, label } of boxes) {
        const fits =
          box.clientWidth > 0 &&
          label.offsetLeft + label.offsetWidth + 1 <= box.clientWidth &&
          label.offsetHeight + 1 <= box.clientHeight;
        box.classList.toggle('label-fits', fits);
      }
    };
    if (typeof ResizeObserver === 'function') {
      const watch = new ResizeObserver(fitLabels);
      for (const { box } of boxes) watch.observe(box);
    } else addEventListener('resize', fitLabels);
    // The page's size in points is its image's at 96 dpi; until it loads, A4 keeps the place.
    const placeBoxes = () => {
      if (!img.naturalWidth || !img.naturalHeight) return;
      sheet.style.aspectRatio = img.naturalWidth + ' / ' + img.naturalHeight;
      const widthPt = img.naturalWidth * POINTS_PER_PIXEL;
      const heightPt = img.naturalHeight * POINTS_PER_PIXEL;
      for (const { box, rect } of boxes) {
        box.style.left = (rect.x / widthPt) * 100 + '%';
        box.style.top = ((heightPt - rect.y - rect.height) / heightPt) * 100 + '%';
        box.style.width = (rect.width / widthPt) * 100 + '%';
        box.style.height = (rect.height / heightPt) * 100 + '%';
        box.classList.add('placed');
      }
      fitLabels();
    };
    if (img.complete) placeBoxes();
    else img.addEventListener('load', placeBoxes);
    figure.append(sheet);
    const caption = el('figcaption', {}, fill(w.page, { n, total }));
    if (boxes.length > 0) {
      const kinds = [...new Set(places.map((p) => w.place[p.kind] || w.place.sign))];
      caption.append(el('strong', {}, ' · ' + fill(w.placesOnPage, { list: kinds.join(', ') })));
    }
    figure.append(caption);
    return figure;
  }

  /**
   * Which documents the signer has paged through: a document is read once its last page's top
   * has come into the window (scrolled to, or past). Checked on scroll and resize, a frame at a
   * time; a document shown only as a link is read when the link is opened.
   */
  function readingTracker(documents) {
    const must = documents.filter((d) => d.mustBeRead).map((d) => d.index);
    const read = new Set();
    const watched = new Map();
    const listeners = new Map();
    const changes = [];
    let queued = false;
    const markRead = (index) => {
      if (read.has(index)) return;
      read.add(index);
      watched.delete(index);
      for (const f of listeners.get(index) || []) f();
      for (const f of changes) f();
    };
    const check = () => {
      queued = false;
      for (const [index, element] of watched)
        if (element.getBoundingClientRect().top < window.innerHeight) markRead(index);
    };
    const queue = () => {
      if (queued || watched.size === 0) return;
      queued = true;
      requestAnimationFrame(check);
    };
    return {
      watch: (index, element) => watched.set(index, element),
      onRead: (index, f) => listeners.set(index, [...(listeners.get(index) || []), f]),
      onChange: (f) => changes.push(f),
      markRead,
      start() {
        window.addEventListener('scroll', queue, { passive: true });
        window.addEventListener('resize', queue);
        // Page images change the layout as they load.
        main.addEventListener('load', queue, true);
        queue();
      },
      all: () => [...read].sort((a, b) => a - b),
      mustCount: must.length,
      mustRead: () => must.filter((i) => read.has(i)).length,
      done: () => must.every((i) => read.has(i)),
    };
  }

  // ------------------------------------------------------------------------------------------
  // Signing

  function signingView(session, reading) {
    const methods = Array.isArray(session.recipient.methods) ? session.recipient.methods : [];
    const draws = methods.includes('draw');
    const schemes = methods.filter((m) => m !== 'draw');
    const section = el('section', { class: 'signing', 'aria-labelledby': 'sign-heading' });
    section.append(el('h2', { id: 'sign-heading' }, w.signHeading));

    const readState = el('p', { class: 'read-hint', id: 'read-hint', 'aria-live': 'polite' });
    section.append(readState);
    const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    const alert = el('p', { class: 'problem', role: 'alert' });

    let signButton = null;
    const eidLinks = [];
    const updateRead = () => {
      const done = reading.done();
      readState.textContent = done
        ? reading.mustCount > 0
          ? w.readAll
          : ''
        : fill(w.readFirst, { n: reading.mustRead(), total: reading.mustCount });
      readState.classList.toggle('is-read', done);
      if (signButton) signButton.disabled = !done;
      for (const a of eidLinks) a.setAttribute('aria-disabled', String(!done));
    };
    reading.onChange(updateRead);

    if (draws) {
      const padPanel = el('div', { class: 'pad-panel' });
      const padHint = el('p', { id: 'pad-hint' }, w.drawLabel);
      const canvas = el('canvas', {
        role: 'img',
        'aria-label': w.pad,
        'aria-describedby': 'pad-hint',
      });
      const frame = el('div', { class: 'pad' }, canvas);
      const pad = new window.SignaturePad(canvas, {
        penColor: 'rgb(16, 32, 96)',
        minWidth: 0.8,
        maxWidth: 2.6,
      });
      const clear = el(
        'button',
        { type: 'button', class: 'secondary', onclick: () => pad.clear() },
        w.clear,
      );
      const toTyped = el('button', { type: 'button', class: 'link-button' }, w.typeInstead);
      // Each panel's switch sits on a row of its own, so the two line up at the same place.
      padPanel.append(
        padHint,
        frame,
        el('div', { class: 'row' }, clear),
        el('div', { class: 'row' }, toTyped),
      );

      const typedPanel = el('div', { class: 'typed-panel', hidden: true });
      const input = el('input', {
        id: 'typed-name',
        type: 'text',
        autocomplete: 'name',
        spellcheck: 'false',
        maxlength: '200',
        'aria-describedby': 'typed-hint',
      });
      const toDraw = el('button', { type: 'button', class: 'link-button' }, w.drawInstead);
      typedPanel.append(
        el('label', { for: 'typed-name' }, fill(w.typedLabel, { name: session.recipient.name })),
        input,
        el('p', { id: 'typed-hint', class: 'meta' }, w.typedHint),
        el('div', { class: 'row' }, toDraw),
      );
      let mode = 'draw';
      toTyped.addEventListener('click', () => {
        mode = 'typed';
        // An error about the other way of signing ("draw first") no longer applies.
        alert.textContent = '';
        padPanel.hidden = true;
        typedPanel.hidden = false;
        input.focus();
      });
      toDraw.addEventListener('click', () => {
        mode = 'draw';
        alert.textContent = '';
        typedPanel.hidden = true;
        padPanel.hidden = false;
        resize();
        toTyped.focus();
      });

      // The canvas's pixels follow its size on screen and the screen's density; resizing clears
      // it, so the strokes are drawn again from their points.
      let width = 0;
      const resize = () => {
        if (frame.offsetWidth === 0 || frame.offsetWidth === width) return;
        width = frame.offsetWidth;
        const ratio = Math.max(window.devicePixelRatio || 1, 1);
        const strokes = pad.toData();
        canvas.width = canvas.offsetWidth * ratio;
        canvas.height = canvas.offsetHeight * ratio;
        canvas.getContext('2d').scale(ratio, ratio);
        pad.clear();
        pad.fromData(strokes);
      };
      window.addEventListener('resize', resize);
      requestAnimationFrame(resize);

      signButton = el(
        'button',
        { type: 'button', class: 'primary', 'aria-describedby': 'read-hint' },
        w.signButton,
      );
      // One request at a time: a second Enter while the first is on its way would be answered
      // as a used link, and say so over the thanks.
      let sending = false;
      const submit = async () => {
        if (sending) return;
        alert.textContent = '';
        if (!reading.done()) return;
        let body;
        if (mode === 'typed') {
          const name = input.value.trim();
          if (!name) {
            alert.textContent = w.emptyName;
            input.focus();
            return;
          }
          body = { method: 'typed', name, documentsRead: reading.all() };
        } else {
          if (pad.isEmpty()) {
            alert.textContent = w.emptyPad;
            return;
          }
          body = { method: 'draw', image: signatureImage(canvas), documentsRead: reading.all() };
        }
        sending = true;
        signButton.disabled = true;
        status.textContent = w.signing;
        const { answer, problem } = await send('/sign', session.csrfToken, body);
        sending = false;
        status.textContent = '';
        if (problem) {
          signButton.disabled = false;
          return showProblem(problem, alert);
        }
        signed(answer);
      };
      signButton.addEventListener('click', submit);
      // Typing the missing name answers the "type your name" error.
      input.addEventListener('input', () => {
        if (input.value.trim()) alert.textContent = '';
      });
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          void submit();
        }
      });
      section.append(padPanel, typedPanel, el('div', { class: 'row' }, signButton), status, alert);
    }

    const eidStart = ownUrl(session.eidStart);
    if (schemes.length > 0 && eidStart) {
      const eid = el('div', { class: 'eid' });
      eid.append(el('h3', {}, draws ? w.eidOr : w.eidHeading));
      if (session.recipient.needsCpr) eid.append(el('p', { class: 'meta' }, w.needsCpr));
      const row = el('div', { class: 'row' });
      for (const scheme of schemes) {
        const a = el(
          'a',
          {
            class: 'button eid-button',
            href: eidStart + '?scheme=' + encodeURIComponent(scheme),
            'aria-describedby': 'read-hint',
          },
          fill(w.eidButton, { scheme: schemeName(scheme) }),
        );
        a.addEventListener('click', (event) => {
          if (!reading.done()) event.preventDefault();
        });
        eidLinks.push(a);
        row.append(a);
      }
      eid.append(row);
      section.append(eid);
      if (!draws) section.append(alert);
    }

    section.append(denyView(session));
    updateRead();
    return section;
  }

  /** The pad's drawing as base64 PNG, scaled down to what the server takes. */
  function signatureImage(canvas) {
    let source = canvas;
    const scale = Math.min(1, MAX_IMAGE.width / canvas.width, MAX_IMAGE.height / canvas.height);
    if (scale < 1) {
      source = document.createElement('canvas');
      source.width = Math.floor(canvas.width * scale);
      source.height = Math.floor(canvas.height * scale);
      source.getContext('2d').drawImage(canvas, 0, 0, source.width, source.height);
    }
    return source.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
  }

  function showProblem(problem, alert) {
    if (problem.kind === 'gone') return reopen();
    alert.textContent = problem.text;
  }

  /**
   * The link opens nothing to act on any more (signed in another tab, the case closed): the
   * server's page says what it is now, in the case's language (a receipt when its recipient
   * signed with it).
   */
  function reopen() {
    replacePage(document.title, el('p', { role: 'status' }, w.loading));
    location.reload();
  }

  function signed(answer) {
    const next = answer && answer.redirectUrl ? webUrl(answer.redirectUrl) : null;
    if (next) {
      replacePage(w.signedHeading, el('p', { role: 'status' }, w.redirecting));
      location.assign(next);
      return;
    }
    replacePage(
      w.signedHeading,
      el('p', {}, answer && answer.completed ? w.signedAll : w.signedOthers),
      el('p', {}, w.closePage),
    ).parentElement.classList.add('done');
  }

  // ------------------------------------------------------------------------------------------
  // Declining

  function denyView(session) {
    const wrap = el('div', { class: 'deny' });
    const open = el('button', { type: 'button', class: 'secondary' }, w.denyButton);
    const dialog = el('dialog', {
      'aria-labelledby': 'deny-heading',
      'aria-describedby': 'deny-text',
    });
    const reason = el('textarea', {
      id: 'deny-reason',
      rows: '4',
      maxlength: '1000',
      required: true,
    });
    const alert = el('p', { class: 'problem', role: 'alert' });
    const status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    const confirm = el('button', { type: 'button', class: 'danger' }, w.denyConfirm);
    const cancel = el(
      'button',
      { type: 'button', class: 'secondary', onclick: () => dialog.close() },
      w.cancel,
    );
    dialog.append(
      el('h2', { id: 'deny-heading' }, w.denyHeading),
      el('p', { id: 'deny-text' }, w.denyText),
      el('label', { for: 'deny-reason' }, w.reason),
      reason,
      alert,
      status,
      el('div', { class: 'row' }, confirm, cancel),
    );
    open.addEventListener('click', () => {
      alert.textContent = '';
      dialog.showModal();
      reason.focus();
    });
    dialog.addEventListener('close', () => open.focus());
    reason.addEventListener('input', () => {
      alert.textContent = '';
    });
    confirm.addEventListener('click', async () => {
      alert.textContent = '';
      const text = reason.value.trim();
      if (!text) {
        alert.textContent = w.emptyReason;
        reason.focus();
        return;
      }
      confirm.disabled = true;
      status.textContent = w.denying;
      const { problem } = await send('/deny', session.csrfToken, { reason: text });
      status.textContent = '';
      confirm.disabled = false;
      if (problem) {
        if (problem.kind === 'gone') {
          dialog.close();
          return reopen();
        }
        alert.textContent = problem.text;
        return;
      }
      dialog.close();
      replacePage(w.deniedHeading, el('p', {}, w.deniedText));
    });
    wrap.append(open, dialog);
    return wrap;
  }

  main.setAttribute('aria-busy', 'true');
  void load();
})();
