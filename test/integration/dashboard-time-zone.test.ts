import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { utcOffset, writtenDateTime } from '../../src/base/util/index.js';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';

/**
 * The dashboard's times in the installation's zone (DOCPIPE_TIME_ZONE), the zone the sealed
 * documents' audit trail writes its times in, so that the two say the same time: here New York,
 * 4 hours behind UTC in July, where a page in UTC would be 4 hours off.
 */
const ZONE = 'America/New_York';
const MOMENT = new Date('2026-07-01T10:30:00Z');

let stack: PagesStack;
let server: PagesServer;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server({ DOCPIPE_TIME_ZONE: ZONE });
});
afterAll(() => stack?.close());

describe('dashboard times in the installation’s zone', () => {
  it('shows the case audit page’s times as the audit trail writes them, the zone named', async () => {
    const ann = await stack.member({ company: 'zone-a', email: 'ann@zone-a.example', admin: true });
    const key = await stack.keys.create({
      company: 'zone-a',
      user: 'ann@zone-a.example',
      name: 'a',
    });
    const res = await fetch(`${server.url}/v3/api/cases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Zone case',
        state: 'draft',
        recipients: [{ name: 'Mette', email: 'mette@example.com' }],
        documents: [{ name: 'Contract', url: 'https://files.example.com/contract.pdf' }],
      }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const id = ((await res.json()) as { case: { id: string } }).case.id;
    // created_at is written once by the database: set here by SQL, as a case made then.
    await sql`update cases set created_at = ${MOMENT} where id = ${id}`.execute(stack.t.db);

    const audit = await (await dashboardBrowser(server, ann)).get(`/dashboard/cases/${id}/audit`);
    expect(audit.status).toBe(200);
    // The audit trail PDF writes this moment as "1 July 2026 at 06:30 (UTC-4)": the same hour
    // and the same zone name.
    expect(writtenDateTime(MOMENT, 'en', ZONE)).toBe('1 July 2026 at 06:30 (UTC-4)');
    expect(utcOffset(MOMENT, ZONE)).toBe('UTC-4');
    expect(audit.html).toContain('<dd>1 Jul 2026, 06:30 UTC-4</dd>');
    expect(audit.html).not.toContain('10:30');
  });

  it('shows a member’s time in the zone, in Danish too, with the zone’s name as its title', async () => {
    const bo = await stack.member({
      company: 'zone-b',
      email: 'bo@zone-b.example',
      admin: true,
      language: 'da',
    });
    await sql`update users set created_at = ${MOMENT} where id = ${bo.userId}`.execute(stack.t.db);
    const members = await (await dashboardBrowser(server, bo)).get('/dashboard/members');
    expect(members.status).toBe(200);
    expect(members.html).toContain(
      `<time datetime="${MOMENT.toISOString()}" title="${ZONE}">1. jul. 2026, 06.30 UTC-4</time>`,
    );
  });
});
