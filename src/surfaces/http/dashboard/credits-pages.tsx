import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  CardPaymentsUnavailableError,
  PurchaseInvalidError,
  autoRefillOf,
  recordPurchase,
  setAutoRefill,
  type CreditPricing,
} from '../../../service/credits/index.js';
import {
  fill,
  localizedPaths,
  memberOf,
  pageOf,
  sendPage,
  type DashboardPages,
  type Member,
  type PageContext,
} from '../pages/index.js';
import { buyValues, purchaseErrors, readBuyForm, type BuyValues } from './credits-buy-form.js';
import { kronerNumber } from './credits-money.js';
import { creditsOverview } from './credits-overview.js';
import { CreditsPage, refillPacks } from './credits-page.js';
import { readRefillForm, refillValues, type RefillValues } from './credits-refill-form.js';
import { redirectWithFlash, takeFlash } from './home-flash.js';

const FORM_TEXT = Type.Optional(Type.String({ maxLength: 1000 }));
const CSRF = { _csrf: Type.Optional(Type.String({ maxLength: 128 })) };

const BuyBody = Type.Object({
  ...CSRF,
  pack: FORM_TEXT,
  method: FORM_TEXT,
  gln: FORM_TEXT,
  orderNumber: FORM_TEXT,
  contact: FORM_TEXT,
  reference: FORM_TEXT,
  key: FORM_TEXT,
});

const RefillBody = Type.Object({
  ...CSRF,
  refillEnabled: FORM_TEXT,
  refillBelow: FORM_TEXT,
  refillPack: FORM_TEXT,
  refillMethod: FORM_TEXT,
  refillGln: FORM_TEXT,
  refillOrderNumber: FORM_TEXT,
  refillContact: FORM_TEXT,
});

/** Card payments need a provider (service/credits' CardPayments), and none is configured yet. */
const CARDS = false;

/** The language prefix the page was asked under (`/da`, `/en`), kept by its forms' answers. */
function prefixOf(page: PageContext): string {
  return /^\/(da|en)(?=\/)/.exec(page.path)?.[0] ?? '';
}

/**
 * `/dashboard/credits` (every member; buying and the auto-refill for admins): the company's
 * balance, purchases, ledger, referral link, and the forms of service/credits' recordPurchase
 * and setAutoRefill, the use cases of `docpipe credits purchase|refill`. A purchase is recorded
 * as `member:<user id>`; partner status is never read (spec 4.6).
 */
export const creditsPages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl, config } = context.deps;
  const pricing: CreditPricing = {
    unitPriceOre: config.credits.unitPriceOre,
    vatPpm: config.credits.vatPpm,
  };
  const packs = config.credits.packs;
  const readOptions = (page: PageContext) => ({ packs, cards: CARDS, words: page.words.credits });

  const show = async (
    reply: FastifyReply,
    page: PageContext,
    member: Member,
    extra: {
      notice?: { kind: 'done' | 'problem'; text: string } | undefined;
      buy?: { values: BuyValues; errors: Record<string, string> };
      refill?: { values: RefillValues; errors: Record<string, string> };
    },
    status = 200,
  ) => {
    const overview = await creditsOverview(db, member.companyId);
    const ref = encodeURIComponent(overview.referral.ref);
    return sendPage(
      reply,
      <CreditsPage
        page={page}
        member={member}
        overview={overview}
        perCase={config.credits.perCase}
        packs={packs}
        pricing={pricing}
        cards={CARDS}
        referralLink={`${publicUrl.replace(/\/+$/, '')}/user/register?ref=${ref}`}
        prefix={prefixOf(page)}
        notice={extra.notice}
        // Each form drawn gets a key of its own: sent twice it buys once, a new form buys again.
        buy={extra.buy ?? { values: { ...buyValues({}), key: randomUUID() }, errors: {} }}
        refill={extra.refill ?? { values: refillValues(undefined, overview.refill), errors: {} }}
      />,
      status,
    );
  };

  for (const path of localizedPaths('/dashboard/credits'))
    scope.get(path, { schema: { hide: true } }, async (request, reply) => {
      const member = await memberOf(request, reply);
      if (!member) return reply;
      const page = pageOf(request);
      const flash = takeFlash(request, reply, publicUrl, page.words.credits);
      return show(reply, page, member, {
        notice: flash && { kind: flash.kind, text: fill(flash.text, flash.values) },
      });
    });

  for (const path of localizedPaths('/dashboard/credits/buy'))
    scope.post(path, { schema: { hide: true, body: BuyBody } }, async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const w = page.words.credits;
      const refuse = (errors: Record<string, string>) =>
        show(reply, page, member, { buy: { values: buyValues(request.body), errors } }, 400);
      const form = readBuyForm(request.body, readOptions(page));
      if (!form.ok) return refuse(form.errors);
      try {
        const { purchase, again } = await recordPurchase(
          { db, pricing },
          { ...form.purchase, company: member.companyId, by: `member:${member.userId}` },
        );
        request.log.info(
          {
            company: member.companyId,
            user: member.userId,
            invoice: purchase.invoiceNumber,
            again,
          },
          'credits bought in the dashboard',
        );
        return redirectWithFlash(reply, publicUrl, `${prefixOf(page)}/dashboard/credits`, {
          key: 'bought',
          values: {
            invoice: purchase.invoiceNumber,
            credits: String(purchase.credits),
            total: kronerNumber(page, purchase.totalOre),
          },
        });
      } catch (err) {
        if (err instanceof PurchaseInvalidError) return refuse(purchaseErrors(err.problems, w));
        if (err instanceof CardPaymentsUnavailableError)
          return refuse({ method: w.cardUnavailable });
        throw err;
      }
    });

  for (const path of localizedPaths('/dashboard/credits/refill'))
    scope.post(path, { schema: { hide: true, body: RefillBody } }, async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const saved = await autoRefillOf(db, member.companyId);
      const offered = refillPacks(packs, saved?.credits);
      const form = readRefillForm(request.body, { ...readOptions(page), packs: offered });
      if (!form.ok)
        return show(
          reply,
          page,
          member,
          { refill: { values: refillValues(request.body, saved), errors: form.errors } },
          400,
        );
      await setAutoRefill(db, member.companyId, form.refill);
      request.log.info(
        { company: member.companyId, user: member.userId, on: form.refill !== undefined },
        'auto-refill saved in the dashboard',
      );
      return redirectWithFlash(reply, publicUrl, `${prefixOf(page)}/dashboard/credits`, {
        key: 'refillSaved',
        values: {},
      });
    });
};
