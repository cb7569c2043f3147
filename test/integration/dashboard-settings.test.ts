import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CompanyRepository,
  FolderRepository,
  PresetRepository,
} from '../../src/service/companies/index.js';
import { dashboardBrowser } from '../helpers/dashboard-forms.js';
import { startPagesStack, type PagesServer, type PagesStack } from '../helpers/pages-stack.js';

/** The settings pages over a real socket: company, logo, folders, presets; isolation and roles. */
let stack: PagesStack;
let server: PagesServer;

beforeAll(async () => {
  stack = await startPagesStack();
  server = await stack.server();
});
afterAll(() => stack?.close());

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32),
]);
const logoForm = (bytes: Buffer, name: string, type: string) => {
  const form = new FormData();
  form.set('logo', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
};

describe('the settings pages', () => {
  it('saves the company settings and refuses a bad signing domain', async () => {
    const ann = await stack.member({ company: 'set-a', email: 'ann@set-a.example', admin: true });
    const b = await dashboardBrowser(server, ann);
    const bad = await b.post('/dashboard/settings', {
      name: 'Acme',
      language: 'en',
      domain: 'https://x/y',
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Enter a host name such as sign.acme.example');
    const ok = await b.post('/dashboard/settings', {
      name: 'Acme A/S',
      language: 'en',
      domain: 'Sign.Acme.example',
    });
    expect(ok.status).toBe(303);
    expect(await new CompanyRepository(stack.t.db).get('set-a')).toMatchObject({
      name: 'Acme A/S',
      defaultLanguage: 'en',
      signingDomain: 'sign.acme.example',
      sendSignedCopyToSender: false,
    });
    expect((await b.get('/dashboard/settings')).html).toContain('The settings were saved.');
  });

  it('takes a PNG logo and shows it; refuses a GIF and a renamed text file', async () => {
    const ann = await stack.member({ company: 'set-b', email: 'ann@set-b.example', admin: true });
    const b = await dashboardBrowser(server, ann);
    const gif = await b.post(
      '/dashboard/settings/logo',
      logoForm(Buffer.from('GIF89a\x01\x00\x01\x00'), 'logo.gif', 'image/gif'),
    );
    expect(gif.status).toBe(400);
    expect(gif.html).toContain('neither a PNG nor a JPEG image');
    const text = await b.post(
      '/dashboard/settings/logo',
      logoForm(Buffer.from('just text'), 'logo.png', 'image/png'),
    );
    expect(text.status).toBe(400);
    expect(await new CompanyRepository(stack.t.db).logo('set-b')).toBeUndefined();
    const png = await b.post('/dashboard/settings/logo', logoForm(PNG, 'logo.png', 'image/png'));
    expect(png.status).toBe(303);
    const res = await fetch(`${server.url}/dashboard/settings/logo`, {
      headers: { cookie: `docpipe_session=${ann.cookie.value}` },
    });
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('takes a JPEG logo by its bytes, whatever its name and declared type, and serves it as a JPEG', async () => {
    const ann = await stack.member({ company: 'set-j', email: 'ann@set-j.example', admin: true });
    const b = await dashboardBrowser(server, ann);
    expect((await b.get('/dashboard/settings')).html).not.toContain(
      'src="/dashboard/settings/logo"',
    );
    // A JFIF file's start (SOI, APP0 "JFIF"), its end marker after it; named and declared a PNG.
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF\0', 'latin1'),
      Buffer.from([0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
      Buffer.alloc(32),
      Buffer.from([0xff, 0xd9]),
    ]);
    const saved = await b.post('/dashboard/settings/logo', logoForm(jpeg, 'logo.png', 'image/png'));
    expect(saved.status).toBe(303);
    expect(await new CompanyRepository(stack.t.db).logo('set-j')).toMatchObject({
      type: 'image/jpeg',
    });
    expect((await b.get('/dashboard/settings')).html).toContain('src="/dashboard/settings/logo"');
    const res = await fetch(`${server.url}/dashboard/settings/logo`, {
      headers: { cookie: `docpipe_session=${ann.cookie.value}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await res.arrayBuffer()).equals(jpeg)).toBe(true);
  });

  it('answers a member 403, and another company’s folder or preset as not found', async () => {
    const ann = await stack.member({ company: 'set-c', email: 'ann@set-c.example', admin: true });
    const cy = await stack.member({ company: 'set-c', email: 'cy@set-c.example' });
    await stack.member({ company: 'set-d', email: 'dee@set-d.example', admin: true });
    const folder = await new FolderRepository(stack.t.db).add('set-d', 'Leases');
    const preset = await new PresetRepository(stack.t.db).add('set-d', {
      id: 'p-d',
      name: 'P',
      settings: { expiresInDays: 7 },
    });
    const member = await dashboardBrowser(server, cy);
    for (const path of ['/dashboard/settings', '/dashboard/settings/folders'])
      expect((await member.get(path)).status).toBe(403);
    const b = await dashboardBrowser(server, ann);
    const id = encodeURIComponent(folder.id);
    expect((await b.post(`/dashboard/settings/folders/${id}/rename`, { name: 'X' })).status).toBe(
      404,
    );
    expect((await b.post(`/dashboard/settings/folders/${id}/delete`, {})).status).toBe(404);
    expect((await b.get(`/dashboard/settings/presets/${preset.id}`)).status).toBe(404);
    expect(
      (await b.post(`/dashboard/settings/presets/${preset.id}`, { name: 'Y', settings: '{}' }))
        .status,
    ).toBe(404);
    expect(await new FolderRepository(stack.t.db).find('set-d', folder.id)).toMatchObject({
      name: 'Leases',
    });
    expect(await new PresetRepository(stack.t.db).find('set-d', 'p-d')).toMatchObject({
      name: 'P',
    });
  });

  it('adds a folder and a preset, refusing settings the API would refuse', async () => {
    const ann = await stack.member({ company: 'set-e', email: 'ann@set-e.example', admin: true });
    const b = await dashboardBrowser(server, ann);
    expect((await b.post('/dashboard/settings/folders', { name: 'Leases' })).status).toBe(303);
    expect((await b.get('/dashboard/settings/folders')).html).toContain(
      'The folder Leases was added.',
    );
    const bad = await b.post('/dashboard/settings/presets', {
      name: 'Quick',
      settings: '{"reminders": {"amount": 99}, "deletion": {}}',
    });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('settings.reminders.amount');
    expect(bad.html).toContain('settings.deletion');
    const ok = await b.post('/dashboard/settings/presets', {
      name: 'Quick',
      settings: '{"expiresInDays": 14}',
    });
    expect(ok.status).toBe(303);
    expect((await new PresetRepository(stack.t.db).list('set-e')).map((p) => p.name)).toEqual([
      'Quick',
    ]);
  });
});
