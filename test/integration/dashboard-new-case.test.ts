import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';

/** The New case form over a real socket: the form, Add/Remove recipient, refusals by their fields. */
let stack: PagesStack;
let server: PagesServer;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
});
afterAll(() => stack?.close());

const caseCount = async (company: string) =>
  Number(
    (
      await stack.t.db
        .selectFrom('cases')
        .select((e) => e.fn.countAll().as('n'))
        .where('company_id', '=', company)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('the New case form', () => {
  it('shows the form with one recipient row and adds one more without script, keeping values', async () => {
    const ann = await stack.member({ company: 'nc-a', email: 'ann@nc-a.example', language: 'en' });
    const b = await dashboardBrowser(server, ann);
    const form = await b.get('/dashboard/cases/new');
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="recipients.0.name"');
    const added = await b.post('/dashboard/cases/new', {
      rows: '1',
      title: 'Lease',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      add: '1',
    });
    expect(added.status).toBe(200);
    expect(added.html).toContain('name="recipients.1.name"');
    expect(added.html).toContain('value="bo@example.com"');
    expect(added.html).toContain('value="Lease"');
  });

  it('shows every refusal next to its field at once and creates nothing', async () => {
    const ann = await stack.member({ company: 'nc-b', email: 'ann@nc-b.example', language: 'en' });
    const b = await dashboardBrowser(server, ann);
    const refused = await b.post('/dashboard/cases/new', {
      rows: '2',
      title: '',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      'recipients.1.name': 'Cy',
      'recipients.1.email': 'not-an-email',
      'recipients.1.signing': 'true',
      expiresInDays: '0',
      state: 'open',
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('class="error-summary"');
    expect(refused.html).toMatch(/id="field-recipients\.1\.email-error"/);
    expect(refused.html).toMatch(/id="field-expiresInDays-error"/);
    expect(refused.html).toMatch(/id="field-title-error"/);
    expect(await caseCount('nc-b')).toBe(0);
  });

  it('saves a draft as the member, source dashboard, and redirects to its places', async () => {
    const ann = await stack.member({ company: 'nc-c', email: 'ann@nc-c.example', language: 'en' });
    const b = await dashboardBrowser(server, ann);
    const saved = await b.post('/dashboard/cases/new', {
      rows: '1',
      title: 'Draft lease',
      'recipients.0.name': 'Bo',
      'recipients.0.email': 'bo@example.com',
      'recipients.0.signing': 'true',
      state: 'draft',
    });
    expect(saved.status).toBe(303);
    const row = await stack.t.db
      .selectFrom('cases')
      .selectAll()
      .where('company_id', '=', 'nc-c')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'draft', title: 'Draft lease', source: 'dashboard' });
    expect(saved.location).toBe(`/dashboard/cases/${row.id}/places`);
  });
});
