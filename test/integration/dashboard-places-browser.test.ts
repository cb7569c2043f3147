import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EN } from '../../src/surfaces/http/pages/words-en.js';
import { draftCase } from '../helpers/draft-case.js';
import { narrowTables } from '../helpers/narrow-tables.js';
import {
  launchChromium,
  startPagesStack,
  type PagesServer,
  type PagesStack,
} from '../helpers/pages-stack.js';

/**
 * The places editor (issue 34) in Chromium: a box dragged for each of two signers on a draft's
 * page image, one moved by the keyboard, saved, and read back from the database in PDF points
 * (within 2 pt of the drag, through the image's scale); the page passes axe at 360 px; a case
 * that is no longer a draft cannot change; another company's case is not found.
 */
let stack: PagesStack;
let server: PagesServer;
let browser: Browser;
const w = EN.places;

beforeAll(async () => {
  stack = await startPagesStack();
  [server, browser] = await Promise.all([stack.server(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function open(page: Page, path: string) {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('heading', { level: 1, name: new RegExp(`^${w.title}`) }).waitFor();
}

/** The first page image, loaded, with its box on screen. */
async function firstPage(page: Page) {
  const image = page.locator('.place-page').first().locator('img');
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0))
    .toBe(true);
  // The page's top at the window's top (under the sticky toolbar), so that the drags below,
  // 150 to 450 px down the image, are inside the 900 px window.
  await image.evaluate((i) => i.scrollIntoView({ block: 'start' }));
  return (await image.boundingBox())!;
}

async function drag(page: Page, from: [number, number], to: [number, number]) {
  await page.mouse.move(from[0], from[1]);
  await page.mouse.down();
  await page.mouse.move((from[0] + to[0]) / 2, (from[1] + to[1]) / 2);
  await page.mouse.move(to[0], to[1]);
  await page.mouse.up();
}

interface Stored {
  kind: string;
  recipient: number;
  page: number;
  rect: { x: number; y: number; width: number; height: number };
}

describe('the places editor', () => {
  it('drags a box for each of two signers, moves one by keyboard, saves them in PDF points', async () => {
    const member = await stack.member({
      company: 'acme',
      email: 'ann@acme.example',
      language: 'en',
    });
    const draft = await draftCase(stack, 'acme', {
      title: 'Lease',
      recipients: [
        { name: 'Alma Berg', email: 'a@example.com' },
        { name: 'Bo Dahl', email: 'b@example.com' },
        { name: 'Copy Only', email: 'c@example.com', signing: false },
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    await context.addCookies([{ ...member.cookie, url: server.url }]);
    const page = await context.newPage();
    try {
      await open(page, `/dashboard/cases/${draft.id}/places`);
      // Only the signers can be given places.
      const names = await page.locator('[data-role=recipient] option').allTextContents();
      expect(names).toEqual(['Alma Berg', 'Bo Dahl']);
      const box = await firstPage(page);
      const scale = draft.pages[0]!.width / box.width;
      const toPoints = (x: number, y: number) => ({
        x: (x - box.x) * scale,
        y: draft.pages[0]!.height - (y - box.y) * scale,
      });

      await page.locator('[data-role=recipient]').selectOption({ label: 'Alma Berg' });
      await page.locator('[data-role=kind]').selectOption('sign');
      const a = { from: [box.x + 40, box.y + 150], to: [box.x + 240, box.y + 190] } as const;
      await drag(page, [...a.from], [...a.to]);
      await expect
        .poll(() => page.locator('[aria-live=polite]').textContent())
        .toBe('Signature of Alma Berg added on page 1.');

      await page.locator('[data-role=recipient]').selectOption({ label: 'Bo Dahl' });
      const b = { from: [box.x + 300, box.y + 400], to: [box.x + 480, box.y + 440] } as const;
      await drag(page, [...b.from], [...b.to]);
      // Bo's box, by keyboard: five steps right (10 pt), two up (4 pt).
      const bo = page.getByRole('button', { name: /^Signature of Bo Dahl, page 1/ });
      await bo.focus();
      for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
      for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowUp');
      await expect
        .poll(() => page.locator('[aria-live=polite]').textContent())
        .toBe('Signature of Bo Dahl moved.');

      await page.getByRole('button', { name: w.save }).click();
      await page.getByText(w.saved).waitFor();

      const row = await stack.t.db
        .selectFrom('case_documents')
        .select('places')
        .where('case_id', '=', draft.id)
        .executeTakeFirstOrThrow();
      const stored = row.places as Stored[];
      expect(stored.map((p) => `${p.kind}:${p.recipient}:${p.page}`)).toEqual([
        'sign:1:1',
        'sign:2:1',
      ]);
      const expected = (
        d: { from: readonly [number, number]; to: readonly [number, number] },
        dx = 0,
        dy = 0,
      ) => {
        const top = toPoints(d.from[0], d.from[1]);
        const bottom = toPoints(d.to[0], d.to[1]);
        return {
          x: top.x + dx,
          y: bottom.y + dy,
          width: bottom.x - top.x,
          height: top.y - bottom.y,
        };
      };
      for (const [place, want] of [
        [stored[0]!, expected(a)],
        [stored[1]!, expected(b, 10, 4)],
      ] as const)
        for (const k of ['x', 'y', 'width', 'height'] as const)
          expect(Math.abs(place.rect[k] - want[k]), `${place.recipient} ${k}`).toBeLessThanOrEqual(
            2,
          );

      // Delete removes a box, and the save stores its absence; the problem sending would answer
      // (Bo has no place now) is shown before Send.
      await page.getByRole('button', { name: /^Signature of Bo Dahl, page 1/ }).focus();
      await page.keyboard.press('Delete');
      await expect
        .poll(() => page.locator('[aria-live=polite]').textContent())
        .toBe('Signature of Bo Dahl removed.');
      await page.getByRole('button', { name: w.save }).click();
      await page.getByText(w.saved).waitFor();
      expect(await page.locator('.places-problems').textContent()).toContain(
        'Bo Dahl signs but has no place yet: add a signature place for them.',
      );
      const after = await stack.t.db
        .selectFrom('case_documents')
        .select('places')
        .where('case_id', '=', draft.id)
        .executeTakeFirstOrThrow();
      expect((after.places as Stored[]).map((p) => p.recipient)).toEqual([1]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('passes axe at 360 px, and lists the places', async () => {
    const member = await stack.member({
      company: 'acme',
      email: 'bea@acme.example',
      language: 'en',
    });
    const draft = await draftCase(stack, 'acme', {
      title: 'Narrow',
      recipients: [{ name: 'Alma Berg', email: 'a@example.com' }],
    });
    const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
    await context.addCookies([{ ...member.cookie, url: server.url }]);
    const page = await context.newPage();
    try {
      await open(page, `/dashboard/cases/${draft.id}/places`);
      await firstPage(page);
      await page.getByRole('button', { name: w.add }).click();
      await page.getByRole('button', { name: /^Signature of Alma Berg, page 1/ }).waitFor();
      const { violations } = await new AxeBuilder({ page }).analyze();
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        360,
      );
      // The places list reads without scrolling sideways, and is still a table.
      const tables = await narrowTables(page);
      expect(tables.scrolling).toEqual([]);
      expect([tables.tables, tables.roles.table]).toEqual([1, 1]);
      // The toolbar's choices look like the other form controls (app.css's .field select), not
      // the browser's own grey boxes beside the styled inputs.
      for (const role of ['recipient', 'kind', 'page']) {
        const look = await page.locator(`select[data-role=${role}]`).evaluate((s) => {
          const c = getComputedStyle(s);
          return [c.borderTopLeftRadius, c.borderTopWidth, c.borderTopColor, c.paddingLeft];
        });
        expect(look, role).toEqual(['6px', '1px', 'rgb(113, 113, 122)', '10px']);
      }
    } finally {
      await context.close();
    }
  }, 120_000);

  it('says a sent case can no longer change, and another company’s case is not found', async () => {
    const member = await stack.member({
      company: 'acme',
      email: 'cai@acme.example',
      language: 'en',
    });
    const other = await stack.member({ company: 'globex', email: 'gus@globex.example' });
    const draft = await draftCase(stack, 'acme', {
      title: 'Sent',
      recipients: [{ name: 'Alma Berg', email: 'a@example.com' }],
    });
    const get = (cookie: { name: string; value: string }, path: string) =>
      fetch(`${server.url}${path}`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    const path = `/dashboard/cases/${draft.id}/places`;
    expect((await get(member.cookie, path)).status).toBe(200);
    const theirs = await get(other.cookie, path);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('Sent');
    expect(
      (await get(other.cookie, `/dashboard/cases/${draft.id}/documents/0/pages/1`)).status,
    ).toBe(404);
    expect(
      (await get(member.cookie, `/dashboard/cases/${draft.id}/documents/0/pages/1`)).headers.get(
        'content-type',
      ),
    ).toBe('image/png');
    // A save with an overlap and a box off its page is refused with both problems, nothing stored.
    const own = await get(member.cookie, path);
    const csrf = own.headers.getSetCookie().find((c) => c.startsWith('docpipe_csrf='))!;
    const token = /name="_csrf" value="([^"]+)"/.exec(await own.text())![1]!;
    const rect = { x: 50, y: 50, width: 150, height: 30 };
    const posted = [
      { document: 0, recipient: 1, kind: 'sign', page: 1, rect },
      { document: 0, recipient: 1, kind: 'name', page: 1, rect: { ...rect, x: 60 } },
      { document: 0, recipient: 1, kind: 'date', page: 2, rect: { ...rect, x: 500 } },
    ];
    const refused = await fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: `${member.cookie.name}=${member.cookie.value}; ${csrf.split(';')[0]!}`,
        origin: server.url,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ _csrf: token, places: JSON.stringify(posted) }).toString(),
    });
    expect(refused.status).toBe(400);
    const problems = await refused.text();
    expect(problems).toContain('Document 1, place 2: it covers place 1 on page 1');
    expect(problems).toContain('Document 1, place 3: it is outside page 2');
    const unchanged = await stack.t.db
      .selectFrom('case_documents')
      .select('places')
      .where('case_id', '=', draft.id)
      .executeTakeFirstOrThrow();
    expect(unchanged.places).toEqual([]);
    // In Danish a place's kind has a word of its own, apart from its position ("Placering").
    const dane = await stack.member({ company: 'acme', email: 'dan@acme.example', language: 'da' });
    const danish = await (await get(dane.cookie, path)).text();
    expect(danish).toMatch(/<label>Felttype<select data-role="kind">/);
    expect(danish).toContain('<th scope="col">Felttype</th>');
    expect(danish).toContain('<th scope="col">Position og størrelse (punkter)</th>');
    await stack.t.db
      .updateTable('cases')
      .set({ state: 'open' })
      .where('id', '=', draft.id)
      .execute();
    const closed = await get(member.cookie, path);
    expect(closed.status).toBe(200);
    const html = await closed.text();
    expect(html).toContain('its places can no longer change');
    expect(html).toContain(`href="/dashboard/cases/${draft.id}"`);
  }, 60_000);
});
