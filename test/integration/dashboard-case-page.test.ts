import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalStorage } from '../../src/render/storage/index.js';
import { caseDocumentKey, signingTokenFor, signingUrl } from '../../src/service/cases/index.js';
import { shownTime } from '../../src/surfaces/http/dashboard/dashboard-time.js';
import { DEFAULT_TIME_ZONE } from '../../src/document/fill/index.js';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import { draftCase } from '../helpers/draft-case.js';
import { webhookRun } from '../helpers/webhook-run.js';
import {
  TEST_SECRET,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/** A case's page (/dashboard/cases/{id}) over a real socket: its parts, send, delete, live part, isolation. */
let stack: PagesStack;
let server: PagesServer;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
});
afterAll(() => stack?.close());

/** A draft with a denial event and a sent message, so that every part of the page has a row. */
async function busyCase(company: string, title: string) {
  const kase = await draftCase(stack, company, {
    title,
    recipients: [
      { name: 'Bo Signer', email: 'bo@example.com' },
      { name: 'Cy Copy', email: 'cy@example.com', signing: false },
    ],
  });
  const db = stack.t.db;
  const bo = await db
    .selectFrom('recipients')
    .select('id')
    .where('case_id', '=', kase.id)
    .where('name', '=', 'Bo Signer')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('case_events')
    .values({
      company_id: company,
      case_id: kase.id,
      trigger: 'case.denied',
      payload: JSON.stringify({ reason: 'Wrong amount' }),
      published_at: null,
    })
    .execute();
  await db
    .insertInto('messages')
    .values({
      company_id: company,
      case_id: kase.id,
      recipient_id: bo.id,
      addressee: bo.id,
      channel: 'email',
      kind: 'invitation',
      status: 'sent',
      to_address: 'bo@example.com',
      claimed_until: null,
      next_attempt_at: null,
      error: null,
      location: '<m@example>',
      sent_at: new Date(),
    })
    .execute();
  return { ...kase, boId: bo.id };
}

describe("a case's page", () => {
  it('shows details, recipients, timeline, documents and the delivery report in English', async () => {
    const ann = await stack.member({ company: 'cp-a', email: 'ann@cp-a.example', language: 'en' });
    const kase = await busyCase('cp-a', 'Lease of flat 3');
    const b = await dashboardBrowser(server, ann);
    const res = await b.get(`/dashboard/cases/${kase.id}`);
    expect(res.status).toBe(200);
    // The heading sets the title apart from the word for case.
    expect(res.html).toContain('<h1>Case: Lease of flat 3</h1>');
    expect(res.html).toContain('Draft');
    // Made by a person over the API: no web-flow is named.
    expect(res.html).not.toContain('href="/dashboard/flows/');
    expect(res.html).toContain('Sender &lt;sender@example.com>');
    expect(res.html).toMatch(/Drafts [0-9a-f]{6}/);
    expect(res.html).toContain('Bo Signer');
    expect(res.html).toContain('Pending');
    expect(res.html).toContain('Receives a copy');
    // The timeline in words, not trigger names.
    expect(res.html).toMatch(/<td data-label="Event">Denied Reason: Wrong amount<\/td>/);
    expect(res.html).not.toMatch(/<code>case\.denied<\/code>/);
    expect(res.html).toContain('Download contract.pdf');
    expect(res.html).toContain('Delivery report');
    // The message's kind and channel in words, not their stored codes; every cell named by its
    // column (data-label), which a narrow screen shows above it when the row stacks.
    expect(res.html).toContain(
      '<td data-label="Message">Invitation</td><td data-label="Channel">E-mail</td>',
    );
    expect(res.html).toContain('<td data-label="Name">Bo Signer</td>');
    expect(res.html).toContain('<td data-label="Address">bo@example.com</td>');
    // The person's name leads to their own account.
    expect(res.html).toContain('<a class="who" href="/dashboard/account">');
    expect(res.html).toContain('bo@example.com');
    expect(res.html).toContain('Sent');
    expect(res.html).toContain(`href="/dashboard/cases/${kase.id}/places"`);
    expect(res.html).toContain('hx-trigger="every 3s"');
    // The document's link downloads the stored PDF.
    const href = /href="([^"]+)" download="contract.pdf"/
      .exec(res.html)?.[1]
      ?.replaceAll('&amp;', '&');
    expect(href).toBeDefined();
    const pdf = await fetch(new URL(href!, server.url));
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('shows the same parts in Danish', async () => {
    const bent = await stack.member({
      company: 'cp-b',
      email: 'bent@cp-b.example',
      language: 'da',
    });
    const kase = await busyCase('cp-b', 'Lejekontrakt');
    const b = await dashboardBrowser(server, bent);
    const res = await b.get(`/dashboard/cases/${kase.id}`);
    expect(res.status).toBe(200);
    expect(res.html).toContain('lang="da"');
    for (const text of [
      '<h1>Sag: Lejekontrakt</h1>',
      // The case's state is called as the case list calls it.
      '<dt>Status</dt>',
      'Kladde',
      'Modtagere',
      'Afventer',
      'Modtager en kopi',
      'Tidslinje',
      'Afvist Begrundelse: Wrong amount',
      'Hent contract.pdf',
      'Leveringsrapport',
      '<td data-label="Besked">Invitation</td><td data-label="Kanal">E-mail</td>',
      'Sendt',
      'Placér underskrifter',
    ])
      expect(res.html).toContain(text);
  });

  it('names the web-flow that made a case, with a link to it, in English and Danish', async () => {
    const ann = await stack.member({ company: 'cp-w', email: 'ann@cp-w.example', language: 'en' });
    const dag = await stack.member({ company: 'cp-w', email: 'dag@cp-w.example', language: 'da' });
    const kase = await busyCase('cp-w', 'Lease from the survey');
    const flow = '3f2a9b1c-7d4e-4f5a-8b6c-0d1e2f3a4b5c';
    // A completed flow's case: its creating key names the flow (no API key has that form).
    await stack.t.db
      .updateTable('cases')
      .set({ created_by_key: `webflow:${flow}` })
      .where('id', '=', kase.id)
      .execute();
    const en = await (await dashboardBrowser(server, ann)).get(`/dashboard/cases/${kase.id}`);
    expect(en.html).toContain(
      `<dt>Created by</dt><dd><a href="/dashboard/flows/${flow}">Web-flow</a></dd>`,
    );
    const da = await (await dashboardBrowser(server, dag)).get(`/dashboard/cases/${kase.id}`);
    expect(da.html).toContain(
      `<dt>Oprettet af</dt><dd><a href="/dashboard/flows/${flow}">Forespørgsel</a></dd>`,
    );
  });

  it('sends a draft whose documents have no places, or shows the typed refusal', async () => {
    const ann = await stack.member({ company: 'cp-c', email: 'ann@cp-c.example', language: 'en' });
    const kase = await draftCase(stack, 'cp-c', {
      title: 'To send',
      recipients: [{ name: 'Bo', email: 'bo@example.com' }],
    });
    const b = await dashboardBrowser(server, ann);
    const sent = await b.post(`/dashboard/cases/${kase.id}/send`, {});
    const row = await stack.t.db
      .selectFrom('cases')
      .select('state')
      .where('id', '=', kase.id)
      .executeTakeFirstOrThrow();
    // No document carries places, so the send's place check has nothing to hold it to.
    expect(sent.status).toBe(303);
    if (sent.status === 303) {
      expect(sent.location).toBe(`/dashboard/cases/${kase.id}`);
      expect(row.state).toBe('open');
      const after = await b.get(`/dashboard/cases/${kase.id}`);
      expect(after.html).toContain('The case was sent to its recipients.');
      expect(after.html).toContain('Open');
      expect(after.html).toContain('data-trigger="case.sent"');
      expect(after.html).toMatch(
        /<tr data-trigger="case.sent"><td data-label="Time">[^<]+<\/td><td data-label="Event">Sent<\/td>/,
      );
    } else {
      expect(sent.status).toBeGreaterThanOrEqual(400);
      expect(sent.status).toBeLessThan(500);
      expect(sent.html).toContain('The case could not be sent:');
      expect(row.state).toBe('draft');
    }
    // Sent once, it cannot be sent again: the refusal is shown, not a 500.
    if (sent.status === 303) {
      const again = await b.post(`/dashboard/cases/${kase.id}/send`, {});
      expect(again.status).toBeGreaterThanOrEqual(400);
      expect(again.status).toBeLessThan(500);
      expect(again.html).toContain('The case could not be sent:');
    }
  });

  it('deletes a case after its confirmation: its rows and its stored PDF', async () => {
    const ann = await stack.member({ company: 'cp-d', email: 'ann@cp-d.example', language: 'en' });
    const kase = await busyCase('cp-d', 'To delete');
    const storage = new LocalStorage(join(stack.redis.dir, 'storage'));
    const key = caseDocumentKey('cp-d', kase.id, 0);
    expect(await storage.get(key)).toBeDefined();
    const b = await dashboardBrowser(server, ann);
    const confirm = await b.get(`/dashboard/cases/${kase.id}/delete`);
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('Delete the case To delete?');
    const done = await b.post(`/dashboard/cases/${kase.id}/delete`, {});
    expect(done.status).toBe(303);
    expect(done.location).toBe('/dashboard/cases');
    // The list it leads to says what was deleted, once.
    const list = await b.get(done.location!);
    expect(list.html).toContain('The case To delete was deleted.');
    expect((await b.get('/dashboard/cases')).html).not.toContain('was deleted');
    const db = stack.t.db;
    for (const table of ['cases', 'recipients', 'case_documents'] as const) {
      const column = table === 'cases' ? 'id' : 'case_id';
      const rows = await db.selectFrom(table).select(column).where(column, '=', kase.id).execute();
      expect(rows, table).toEqual([]);
    }
    expect(await storage.get(key)).toBeFalsy();
    expect((await b.get(`/dashboard/cases/${kase.id}`)).status).toBe(404);
  });

  it("answers another company's case as not found on every route, and changes nothing", async () => {
    const ann = await stack.member({ company: 'cp-e', email: 'ann@cp-e.example', language: 'en' });
    await stack.member({ company: 'cp-f', email: 'bo@cp-f.example', language: 'en' });
    const kase = await busyCase('cp-f', 'Not yours');
    const b = await dashboardBrowser(server, ann);
    for (const path of ['', '/live?v=x', '/delete'])
      expect((await b.get(`/dashboard/cases/${kase.id}${path}`)).status, path).toBe(404);
    expect((await b.get(`/dashboard/cases/${kase.id}/audit`)).status).toBe(404);
    for (const path of ['/send', '/delete', '/extend', '/remind'])
      expect((await b.post(`/dashboard/cases/${kase.id}${path}`, {})).status, path).toBe(404);
    // The link is an admin's: an admin of another company finds no such case either.
    const admin = await stack.member({
      company: 'cp-e',
      email: 'adm@cp-e.example',
      language: 'en',
      admin: true,
    });
    const link = await (
      await dashboardBrowser(server, admin)
    ).post(`/dashboard/cases/${kase.id}/link`, { recipient: kase.boId });
    expect(link.status).toBe(404);
    const row = await stack.t.db
      .selectFrom('cases')
      .select('state')
      .where('id', '=', kase.id)
      .executeTakeFirst();
    expect(row?.state).toBe('draft');
  });

  it("extends an open case's expiry by the days given, and refuses days out of bounds", async () => {
    const ann = await stack.member({ company: 'cp-h', email: 'ann@cp-h.example', language: 'en' });
    const kase = await draftCase(stack, 'cp-h', {
      title: 'Longer',
      recipients: [{ name: 'Bo', email: 'bo@example.com' }],
    });
    const db = stack.t.db;
    const expiresAt = () =>
      db
        .selectFrom('cases')
        .select('expires_at')
        .where('id', '=', kase.id)
        .executeTakeFirstOrThrow()
        .then((r) => r.expires_at.getTime());
    const b = await dashboardBrowser(server, ann);
    // A draft cannot be extended: it has no running expiry yet.
    const before = await expiresAt();
    const draft = await b.post(`/dashboard/cases/${kase.id}/extend`, { days: '10' });
    expect(draft.status).toBe(409);
    expect(await expiresAt()).toBe(before);
    await db.updateTable('cases').set({ state: 'open' }).where('id', '=', kase.id).execute();
    expect((await b.get(`/dashboard/cases/${kase.id}`)).html).toContain('name="days"');
    for (const days of ['0', '366', 'ten']) {
      const refused = await b.post(`/dashboard/cases/${kase.id}/extend`, { days });
      expect(refused.status, days).toBe(400);
      expect(refused.html).toContain('Give a whole number of days from 1 to 365');
    }
    expect(await expiresAt()).toBe(before);
    const done = await b.post(`/dashboard/cases/${kase.id}/extend`, { days: '10' });
    expect(done.status).toBe(303);
    expect(await expiresAt()).toBe(before + 10 * 86_400_000);
    const after = await b.get(done.location!);
    expect(after.html).toContain('The case now expires');
  });

  it('makes the next reminder of an open case due now, and refuses a draft', async () => {
    const ann = await stack.member({ company: 'cp-i', email: 'ann@cp-i.example', language: 'en' });
    const kase = await draftCase(stack, 'cp-i', {
      title: 'Remind',
      recipients: [{ name: 'Bo', email: 'bo@example.com' }],
    });
    const db = stack.t.db;
    const due = () =>
      db
        .selectFrom('cases')
        .select('next_reminder_at')
        .where('id', '=', kase.id)
        .executeTakeFirstOrThrow()
        .then((r) => r.next_reminder_at);
    const b = await dashboardBrowser(server, ann);
    const draft = await b.post(`/dashboard/cases/${kase.id}/remind`, {});
    expect(draft.status).toBe(409);
    expect(draft.html).toContain('there is no one to remind');
    expect(await due()).toBeNull();
    await db.updateTable('cases').set({ state: 'open' }).where('id', '=', kase.id).execute();
    const before = Date.now();
    const done = await b.post(`/dashboard/cases/${kase.id}/remind`, {});
    expect(done.status).toBe(303);
    const at = await due();
    expect(at).not.toBeNull();
    expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(at!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await b.get(done.location!)).html).toContain('get a reminder within a minute');
  });

  it('answers the live route 204 while unchanged and the changed part after a signature', async () => {
    const ann = await stack.member({ company: 'cp-g', email: 'ann@cp-g.example', language: 'en' });
    const kase = await busyCase('cp-g', 'Live');
    const b = await dashboardBrowser(server, ann);
    const page = await b.get(`/dashboard/cases/${kase.id}`);
    const live = /hx-get="([^"]+)"/.exec(page.html)?.[1]?.replaceAll('&amp;', '&');
    expect(live).toMatch(new RegExp(`^/dashboard/cases/${kase.id}/live\\?v=`));
    const unchanged = await b.get(live!);
    expect(unchanged.status).toBe(204);
    expect(unchanged.html).toBe('');
    await stack.t.db
      .updateTable('recipients')
      .set({ status: 'signed', acted_at: new Date() })
      .where('id', '=', kase.boId)
      .execute();
    const changed = await b.get(live!);
    expect(changed.status).toBe(200);
    expect(changed.html).toMatch(/^<div id="case-live"/);
    expect(changed.html).not.toContain('<html');
    expect(changed.html).toContain('Signed');
    const next = /hx-get="([^"]+)"/.exec(changed.html)?.[1]?.replaceAll('&amp;', '&');
    expect(next).not.toBe(live);
    expect((await b.get(next!)).status).toBe(204);
  });

  it('gives an admin a pending signer’s link, written to the audit trail, with no webhook event', async () => {
    const ann = await stack.member({
      company: 'cp-j',
      email: 'ann@cp-j.example',
      name: 'Ann Admin',
      language: 'en',
      admin: true,
    });
    const moe = await stack.member({ company: 'cp-j', email: 'moe@cp-j.example', language: 'en' });
    const kase = await busyCase('cp-j', 'Linked');
    const db = stack.t.db;
    const { token, hash } = signingTokenFor(TEST_SECRET, kase.boId);
    await db
      .updateTable('recipients')
      .set({ signing_token_hash: hash })
      .where('id', '=', kase.boId)
      .execute();
    await db.updateTable('cases').set({ state: 'open' }).where('id', '=', kase.id).execute();
    const events = () =>
      db
        .selectFrom('case_events')
        .select('trigger')
        .where('case_id', '=', kase.id)
        .execute()
        .then((r) => r.length);
    const eventsBefore = await events();

    // A member who is no admin sees no button, and the route refuses them.
    const m = await dashboardBrowser(server, moe);
    expect((await m.get(`/dashboard/cases/${kase.id}`)).html).not.toContain('/link"');
    const refused = await m.post(`/dashboard/cases/${kase.id}/link`, { recipient: kase.boId });
    expect(refused.status).toBe(403);
    expect(refused.html).not.toContain(token);

    const a = await dashboardBrowser(server, ann);
    const page = await a.get(`/dashboard/cases/${kase.id}`);
    expect(page.html).toContain(`action="/dashboard/cases/${kase.id}/link"`);
    expect(page.html).toContain('Show the signing link of Bo Signer');
    expect(page.html).not.toContain(token);
    const taken = await a.post(`/dashboard/cases/${kase.id}/link`, { recipient: kase.boId });
    expect(taken.status).toBe(200);
    // The link invitations carry, written by the same code.
    const url = signingUrl(null, server.url, token);
    expect(taken.html).toContain(`value="${url}"`);
    expect(taken.html).toContain('readonly');
    expect(taken.html).toContain('<copy-button for="signing-link"');
    expect(taken.html).toContain('Signing link of Bo Signer');

    const records = await db
      .selectFrom('case_audit')
      .select(['action', 'user_id', 'user_name', 'recipient_id'])
      .where('case_id', '=', kase.id)
      .execute();
    expect(records).toEqual([
      {
        action: 'signing-link-taken',
        user_id: ann.userId,
        user_name: 'Ann Admin <ann@cp-j.example>',
        recipient_id: kase.boId,
      },
    ]);
    expect(await events()).toBe(eventsBefore);

    // The audit trail shows it in the member's words; a reload of the case never shows the link.
    const audit = await a.get(`/dashboard/cases/${kase.id}/audit`);
    expect(audit.status).toBe(200);
    expect(audit.html).toContain('took the signing link of Bo Signer');
    expect(audit.html).toContain('Ann Admin &lt;ann@cp-j.example>');
    expect(audit.html).not.toContain(token);
    expect((await a.get(`/dashboard/cases/${kase.id}`)).html).not.toContain(token);

    // A copy recipient has no link, and a case of another secret cannot give one: typed refusals.
    const cy = await db
      .selectFrom('recipients')
      .select('id')
      .where('case_id', '=', kase.id)
      .where('name', '=', 'Cy Copy')
      .executeTakeFirstOrThrow();
    const copy = await a.post(`/dashboard/cases/${kase.id}/link`, { recipient: cy.id });
    expect(copy.status).toBe(409);
    expect(copy.html).toContain('<code>recipientId</code>');
    await db
      .updateTable('recipients')
      .set({ signing_token_hash: Buffer.alloc(32) })
      .where('id', '=', kase.boId)
      .execute();
    const lost = await a.post(`/dashboard/cases/${kase.id}/link`, { recipient: kase.boId });
    expect(lost.status).toBe(409);
    expect(lost.html).toContain('<code>signingSecret</code>');
    const other = await busyCase('cp-j', 'Other');
    const foreign = await a.post(`/dashboard/cases/${kase.id}/link`, { recipient: other.boId });
    expect(foreign.status).toBe(404);
    expect(
      await db.selectFrom('case_audit').select('id').where('case_id', '=', kase.id).execute(),
    ).toHaveLength(1);
  });

  it('shows the audit trail in Danish and the webhook runs in the timeline', async () => {
    const bent = await stack.member({
      company: 'cp-k',
      email: 'bent@cp-k.example',
      language: 'da',
      admin: true,
    });
    const kase = await busyCase('cp-k', 'Revision');
    const db = stack.t.db;
    await db
      .updateTable('recipients')
      .set({ status: 'signed', acted_at: new Date() })
      .where('id', '=', kase.boId)
      .execute();
    await db
      .insertInto('signatures')
      .values({
        recipient_id: kase.boId,
        company_id: 'cp-k',
        case_id: kase.id,
        method: 'draw',
        typed_name: null,
        image: Buffer.from('png'),
        identity: null,
        cpr_matched: null,
        ip: '203.0.113.7',
        user_agent: 'TestBrowser/1.0',
      })
      .execute();
    const event = await db
      .insertInto('case_events')
      .values({
        company_id: 'cp-k',
        case_id: kase.id,
        trigger: 'recipient.signed',
        payload: JSON.stringify({ recipient: { name: 'Bo Signer' } }),
        published_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { webhookId: hookId, deliveryId: runId } = await webhookRun(db, {
      company: 'cp-k',
      url: 'https://hooks.example/in?secret=s3cr3t',
      caseId: kase.id,
      eventId: event.id,
      trigger: 'recipient.signed',
      status: 'succeeded',
      attempts: 2,
      last_status: 200,
    });
    // A second webhook whose one try got no HTTP answer: the page says what happened instead.
    await webhookRun(db, {
      company: 'cp-k',
      url: 'https://down.example/in',
      caseId: kase.id,
      eventId: event.id,
      trigger: 'recipient.signed',
      status: 'pending',
      attempts: 1,
      next_attempt_at: new Date(),
      last_error: 'connect ECONNREFUSED 203.0.113.9:443',
    });
    const reminded = new Date('2026-03-04T05:06:00Z');
    await db
      .insertInto('messages')
      .values({
        company_id: 'cp-k',
        case_id: kase.id,
        recipient_id: kase.boId,
        addressee: kase.boId,
        channel: 'email',
        kind: 'reminder',
        sequence: 1,
        status: 'sent',
        to_address: 'bo@example.com',
        claimed_until: null,
        next_attempt_at: null,
        error: null,
        location: '<r@example>',
        sent_at: reminded,
      })
      .execute();
    const b = await dashboardBrowser(server, bent);
    const res = await b.get(`/dashboard/cases/${kase.id}`);
    expect(res.html).toContain('<th scope="col">Sidst påmindet</th>');
    // Bo's row: invited (none), then the last reminder's time.
    expect(res.html).toContain(
      `<td data-label="Inviteret">–</td><td data-label="Sidst påmindet">${shownTime({ language: 'da', timeZone: DEFAULT_TIME_ZONE }, reminded)}</td>`,
    );
    expect(res.html).toContain('<td data-label="Hændelse">Underskrevet: Bo Signer</td>');
    // The method in words, as the audit trail page names it.
    expect(res.html).toContain('<td data-label="Metode">Tegnet underskrift</td>');
    expect(res.html).toContain(
      'Webhooken https://hooks.example/in fik “Underskrevet”: leveret (2 forsøg, sidste svar HTTP 200)',
    );
    expect(res.html).toContain(
      'Webhooken https://down.example/in fik “Underskrevet”: ved at blive leveret (1 forsøg, intet svar: forbindelsen blev afvist)',
    );
    // In English, a try is counted in the singular, and the refusal in words, not Node's code.
    const eve = await stack.member({ company: 'cp-k', email: 'eve@cp-k.example', language: 'en' });
    const english = await (await dashboardBrowser(server, eve)).get(`/dashboard/cases/${kase.id}`);
    expect(english.html).toContain('(2 tries, last answer HTTP 200)');
    expect(english.html).toContain(
      'Webhook down.example got “Signed”: being delivered (1 try, no answer: the connection was refused)',
    );
    expect(english.html).not.toContain('ECONNREFUSED');
    // The receiver's query may hold its secret: never on the page.
    expect(res.html).not.toContain('s3cr3t');
    expect(res.html).toContain(`href="/dashboard/webhooks/${hookId}/runs/${runId}"`);
    // A member who is no admin sees the run, its host only, and no link to the admins' page.
    const moe = await stack.member({ company: 'cp-k', email: 'moe@cp-k.example', language: 'da' });
    const seen = await (await dashboardBrowser(server, moe)).get(`/dashboard/cases/${kase.id}`);
    expect(seen.html).toContain('Webhooken hooks.example fik “Underskrevet”: leveret');
    expect(seen.html).not.toContain('hooks.example/in');
    expect(seen.html).not.toContain(`/dashboard/webhooks/${hookId}`);
    const audit = await b.get(`/dashboard/cases/${kase.id}/audit`);
    expect(audit.status).toBe(200);
    expect(audit.html).toContain('lang="da"');
    for (const text of [
      'Revisionsspor for Revision',
      '1. Bo Signer',
      'Tegnet underskrift',
      '203.0.113.7',
      'TestBrowser/1.0',
      'SHA-256 som vist for underskriverne',
      'Intet medlem har hentet et underskriftslink.',
    ])
      expect(audit.html).toContain(text);
    const sha = await db
      .selectFrom('case_documents')
      .select('sha256')
      .where('case_id', '=', kase.id)
      .executeTakeFirstOrThrow();
    expect(audit.html).toContain(sha.sha256!);
  });

  it('keeps the signing link out of the request log of the route that gives it', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const logged = await stack.server({}, { logger: pino({ level: 'trace' }, sink) });
    const ann = await stack.member({
      company: 'cp-l',
      email: 'ann@cp-l.example',
      language: 'en',
      admin: true,
    });
    const kase = await busyCase('cp-l', 'Logged');
    const db = stack.t.db;
    const { token, hash } = signingTokenFor(TEST_SECRET, kase.boId);
    await db
      .updateTable('recipients')
      .set({ signing_token_hash: hash })
      .where('id', '=', kase.boId)
      .execute();
    await db.updateTable('cases').set({ state: 'open' }).where('id', '=', kase.id).execute();
    const b = await dashboardBrowser(logged, ann);
    const taken = await b.post(`/dashboard/cases/${kase.id}/link`, { recipient: kase.boId });
    expect(taken.status).toBe(200);
    expect(taken.html).toContain(token);
    // The route's own lines are there (so the log was written), and none carries the token.
    const route = lines.filter((l) => l.includes(`/dashboard/cases/${kase.id}/link`));
    expect(route.length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.includes(token))).toEqual([]);
  });
});
