import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  CompanyRepository,
  RecordInvalidError,
  logoTypeOf,
  type Company,
} from '../../../service/companies/index.js';
import { FileRefusal } from '../common/files-errors.js';
import type { HttpApp } from '../common/create-app.js';
import {
  PAGE_HEADERS,
  fill,
  memberOf,
  pageOf,
  sendPage,
  sendProblem,
  type Member,
  type PageContext,
} from '../pages/index.js';
import type { DashboardPages } from '../pages/index.js';
import { redirectWithFlash, takeFlash } from './home-flash.js';
import {
  SettingsCompanyPage,
  companyForm,
  type SettingsCompanyPageProps,
} from './settings-company-page.js';
import { logoFormParser, logoOf } from './settings-logo-form.js';
import { formProblems } from './settings-problems.js';

const CSRF = { _csrf: Type.Optional(Type.String({ maxLength: 128 })) };

const CompanyBody = Type.Object({
  ...CSRF,
  name: Type.Optional(Type.String({ maxLength: 1000 })),
  language: Type.Optional(Type.String({ maxLength: 64 })),
  domain: Type.Optional(Type.String({ maxLength: 1000 })),
  signedCopy: Type.Optional(Type.String({ maxLength: 8 })),
});

/**
 * `/dashboard/settings` (admins): the company's settings through CompanyRepository (the rules
 * `docpipe companies` has), and its logo: uploaded as a file, taken when its bytes are a PNG or
 * a JPEG of at most 1 MiB (service/companies' logoTypeOf), served back for the preview.
 */
export const settingsCompanyPages: DashboardPages = async (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  const companies = new CompanyRepository(db);
  const ownHost = new URL(publicUrl).host;

  const show = async (
    reply: FastifyReply,
    page: PageContext,
    member: Member,
    extra: Partial<SettingsCompanyPageProps> & { company?: Company },
    status = 200,
  ) => {
    const company = extra.company ?? (await companies.get(member.companyId));
    const hasLogo = (await companies.logoType(member.companyId)) !== undefined;
    return sendPage(
      reply,
      <SettingsCompanyPage
        page={page}
        member={member}
        company={company}
        form={companyForm(company)}
        hasLogo={hasLogo}
        ownHost={ownHost}
        {...extra}
      />,
      status,
    );
  };

  scope.get('/dashboard/settings', { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const flash = takeFlash(request, reply, publicUrl, page.words.settings);
    return show(reply, page, member, {
      notice: flash && { kind: flash.kind, text: fill(flash.text, flash.values) },
    });
  });

  scope.post(
    '/dashboard/settings',
    { schema: { hide: true, body: CompanyBody } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const w = page.words.settings;
      const company = await companies.get(member.companyId);
      const form = {
        name: (request.body.name ?? '').trim(),
        language: request.body.language ?? '',
        domain: (request.body.domain ?? '').trim(),
        signedCopy: request.body.signedCopy === 'true',
      };
      const refuse = (errors: Record<string, string>) =>
        show(reply, page, member, { company, form, errors }, 400);
      // The form offers Danish, English and what the operator set; nothing else is taken here.
      const offered = ['da', 'en', company.defaultLanguage ?? 'da'];
      if (!offered.includes(form.language)) return refuse({ language: w.languageInvalid });
      try {
        await companies.setSettings(member.companyId, {
          name: form.name,
          defaultLanguage: form.language,
          signingDomain: form.domain === '' ? null : form.domain,
          sendSignedCopyToSender: form.signedCopy,
        });
      } catch (err) {
        if (!(err instanceof RecordInvalidError)) throw err;
        const empty = form.name === '';
        return refuse(
          formProblems(
            err.problems,
            w,
            { name: empty ? w.nameMissing : w.nameInvalid, signingDomain: w.domainInvalid },
            (path) => ({ signingDomain: 'domain', defaultLanguage: 'language' })[path] ?? path,
          ),
        );
      }
      return redirectWithFlash(reply, publicUrl, '/dashboard/settings', {
        key: 'saved',
        values: {},
      });
    },
  );

  scope.get('/dashboard/settings/logo', { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const logo = await companies.logo(member.companyId);
    if (!logo) return sendProblem(reply, pageOf(request), 'notFound');
    return reply
      .headers({ ...PAGE_HEADERS, 'cache-control': 'private, no-cache' })
      .type(logo.type)
      .send(logo.bytes);
  });

  scope.post(
    '/dashboard/settings/logo/remove',
    { schema: { hide: true, body: Type.Object(CSRF) } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      await companies.removeLogo(member.companyId);
      return redirectWithFlash(reply, publicUrl, '/dashboard/settings', {
        key: 'logoRemoved',
        values: {},
      });
    },
  );

  // The upload in a context of its own: only this route reads multipart bodies.
  await scope.register((uploads: HttpApp, _options, done) => {
    uploads.addContentTypeParser('multipart/form-data', logoFormParser);
    // A form past the upload's limits is cut off while it is read, before the page knows who
    // sent it: the settings page says so after a redirect (the rest of the body stays unread,
    // and the connection is closed).
    uploads.setErrorHandler((error, _request, reply) => {
      if (!(error instanceof FileRefusal)) throw error;
      void reply.header('connection', 'close');
      return redirectWithFlash(reply, publicUrl, '/dashboard/settings', {
        key: 'logoCutOff',
        values: {},
        problem: true,
      });
    });
    uploads.post(
      '/dashboard/settings/logo',
      { schema: { hide: true, body: Type.Object(CSRF, { additionalProperties: true }) } },
      async (request, reply) => {
        const member = await memberOf(request, reply, { admin: true });
        if (!member) return reply;
        const page = pageOf(request);
        const w = page.words.settings;
        const bytes = logoOf(request);
        const found = logoTypeOf(bytes);
        if ('problem' in found) {
          const reason = {
            empty: w.logoEmpty,
            'too-large': fill(w.logoTooLarge, { bytes: bytes.byteLength }),
            'not-an-image': w.logoNotImage,
          }[found.reason];
          return show(reply, page, member, { logoProblem: fill(w.logoRefused, { reason }) }, 400);
        }
        await companies.setLogo(member.companyId, bytes);
        return redirectWithFlash(reply, publicUrl, '/dashboard/settings', {
          key: 'logoSaved',
          values: {},
        });
      },
    );
    done();
  });
};
