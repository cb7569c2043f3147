import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRepository } from '../../src/service/companies/index.js';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';

/**
 * The members page over a real socket: invite, remove, make admin or member, the last admin
 * kept, a member (not admin) refused, another company's member not found.
 */
let stack: PagesStack;
let server: PagesServer;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
});
afterAll(() => stack?.close());

const users = () => new UserRepository(stack.t.db);

describe('the members page', () => {
  it('invites a member, who is listed with the invitation not taken, and sends the e-mail', async () => {
    const ann = await stack.member({ company: 'mem-a', email: 'ann@mem-a.example', admin: true });
    const b = await dashboardBrowser(server, ann);
    const posted = await b.post('/dashboard/members', {
      name: 'Bo Berg',
      email: 'bo@mem-a.example',
    });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe('/dashboard/members');
    const list = await b.get('/dashboard/members');
    expect(list.status).toBe(200);
    expect(list.html).toContain('We sent an invitation to bo@mem-a.example.');
    const row = /<tr><th scope="row">Bo Berg<\/th>.*?<\/tr>/s.exec(list.html)?.[0] ?? '';
    expect(row).toContain('bo@mem-a.example');
    expect(row).toContain('Not taken yet');
    expect(row).toContain('>Member<');
    // The flash is shown once.
    expect((await b.get('/dashboard/members')).html).not.toContain('We sent an invitation');
    const bo = await users().findByEmail('mem-a', 'bo@mem-a.example');
    expect(bo).toMatchObject({ name: 'Bo Berg', admin: false });
    const dir =
      server.config.delivery.email.kind === 'file' ? server.config.delivery.email.dir : '';
    const mails = readdirSync(dir).map((f) => readFileSync(join(dir, f), 'utf8'));
    expect(mails.some((m) => m.includes('To: Bo Berg <bo@mem-a.example>'))).toBe(true);
  });

  it('refuses an invitation without a name, with a bad address or for a member already there', async () => {
    const ann = await stack.member({ company: 'mem-b', email: 'ann@mem-b.example', admin: true });
    const b = await dashboardBrowser(server, ann);
    const bad = await b.post('/dashboard/members', { name: '', email: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Enter their name.');
    expect(bad.html).toContain('Enter an e-mail address such as ann@example.com.');
    const again = await b.post('/dashboard/members', {
      name: 'Ann',
      email: 'ANN@mem-b.example',
      admin: 'true',
    });
    expect(again.status).toBe(400);
    expect(again.html).toContain('ANN@mem-b.example is a member of Company mem-b already.');
    expect(await users().list('mem-b')).toHaveLength(1);
  });

  it('removes a member after a confirmation page, and their keys answer key-has-no-user', async () => {
    const ann = await stack.member({ company: 'mem-c', email: 'ann@mem-c.example', admin: true });
    const cy = await stack.member({ company: 'mem-c', email: 'cy@mem-c.example' });
    const key = await stack.keys.create({ company: 'mem-c', user: 'cy@mem-c.example', name: 'k' });
    const b = await dashboardBrowser(server, ann);
    const ask = await b.get(`/dashboard/members/${cy.userId}/remove`);
    expect(ask.status).toBe(200);
    expect(ask.html).toContain('key-has-no-user');
    const removed = await b.post(`/dashboard/members/${cy.userId}/remove`, {});
    expect(removed.status).toBe(303);
    const list = await b.get('/dashboard/members');
    expect(list.html).toContain('cy@mem-c.example was removed.');
    expect(list.html).not.toContain('<td>cy@mem-c.example</td>');
    expect(await users().findById('mem-c', cy.userId)).toBeUndefined();
    const res = await fetch(`${server.url}/v3/api/cases`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toBe('key-has-no-user');
  });

  it('makes a member an admin and back, and never removes or demotes the last admin', async () => {
    const ann = await stack.member({ company: 'mem-d', email: 'ann@mem-d.example', admin: true });
    const dee = await stack.member({ company: 'mem-d', email: 'dee@mem-d.example' });
    const b = await dashboardBrowser(server, ann);

    const demoteSelf = await b.post(`/dashboard/members/${ann.userId}/role`, { admin: 'false' });
    expect(demoteSelf.status).toBe(409);
    expect(demoteSelf.html).toContain(
      'ann@mem-d.example is the last admin of Company mem-d: make another member an admin first',
    );
    const removeSelf = await b.post(`/dashboard/members/${ann.userId}/remove`, {});
    expect(removeSelf.status).toBe(409);
    expect(removeSelf.html).toContain('is the last admin of Company mem-d');
    expect(await users().findById('mem-d', ann.userId)).toMatchObject({ admin: true });

    const promote = await b.post(`/dashboard/members/${dee.userId}/role`, { admin: 'true' });
    expect(promote.status).toBe(303);
    expect((await b.get('/dashboard/members')).html).toContain(
      'dee@mem-d.example is an admin now.',
    );
    expect(await users().findById('mem-d', dee.userId)).toMatchObject({ admin: true });

    // With two admins, either may go; the one left is the last again.
    const demote = await b.post(`/dashboard/members/${dee.userId}/role`, { admin: 'false' });
    expect(demote.status).toBe(303);
    expect(await users().findById('mem-d', dee.userId)).toMatchObject({ admin: false });
  });

  it('keeps an admin when two admins demote each other at the same moment', async () => {
    const ann = await stack.member({ company: 'mem-e', email: 'ann@mem-e.example', admin: true });
    const eve = await stack.member({ company: 'mem-e', email: 'eve@mem-e.example', admin: true });
    const [a, e] = await Promise.all([
      dashboardBrowser(server, ann),
      dashboardBrowser(server, eve),
    ]);
    const answers = await Promise.all([
      a.post(`/dashboard/members/${eve.userId}/role`, { admin: 'false' }),
      e.post(`/dashboard/members/${ann.userId}/role`, { admin: 'false' }),
    ]);
    // One demotion goes through. The other is refused: 409 when both checked while both were
    // admins (the row lock keeps one), or 403 when it came after the first took its admin away.
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses[0]).toBe(303);
    expect([403, 409]).toContain(statuses[1]);
    const admins = (await users().list('mem-e')).filter((u) => u.admin);
    expect(admins).toHaveLength(1);
  });

  it('answers a member who is not an admin 403, and another company’s member as not found', async () => {
    const ann = await stack.member({ company: 'mem-f', email: 'ann@mem-f.example', admin: true });
    const fay = await stack.member({ company: 'mem-f', email: 'fay@mem-f.example' });
    const other = await stack.member({ company: 'mem-g', email: 'gus@mem-g.example' });
    const member = await dashboardBrowser(server, fay);
    expect((await member.get('/dashboard/members')).status).toBe(403);
    expect(
      (await member.post('/dashboard/members', { name: 'X', email: 'x@x.example' })).status,
    ).toBe(403);
    expect((await member.post(`/dashboard/members/${ann.userId}/remove`, {})).status).toBe(403);

    const admin = await dashboardBrowser(server, ann);
    const notFound = (await admin.get(`/dashboard/members/${other.userId}/remove`)).status;
    expect(notFound).toBe(404);
    expect((await admin.post(`/dashboard/members/${other.userId}/remove`, {})).status).toBe(404);
    expect(
      (await admin.post(`/dashboard/members/${other.userId}/role`, { admin: 'true' })).status,
    ).toBe(404);
    expect((await admin.get('/dashboard/members/not-a-uuid/remove')).status).toBe(404);
    expect(await users().findById('mem-g', other.userId)).toMatchObject({ admin: false });
    expect((await admin.get('/dashboard/members')).html).not.toContain('gus@mem-g.example');
  });
});
