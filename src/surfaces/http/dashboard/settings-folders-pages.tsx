import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import {
  FolderNotEmptyError,
  FolderRepository,
  RecordExistsError,
  RecordInvalidError,
  RecordNotFoundError,
} from '../../../service/companies/index.js';
import {
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
import { SettingsFoldersPage, type SettingsFoldersPageProps } from './settings-folders-page.js';

const CSRF = { _csrf: Type.Optional(Type.String({ maxLength: 128 })) };
const NameBody = Type.Object({ ...CSRF, name: Type.Optional(Type.String({ maxLength: 1000 })) });
const FolderParams = Type.Object({ id: Type.String({ maxLength: 200 }) });
const PATH = '/dashboard/settings/folders';

/**
 * `/dashboard/settings/folders` (admins): FolderRepository's add, rename, set default and
 * delete (only an empty folder that is not the default), as the CLI's folders commands use it.
 * Another company's folder id is not found, as an absent one.
 */
export const settingsFoldersPages: DashboardPages = (scope, { context }) => {
  const { db, publicUrl } = context.deps;
  const folders = new FolderRepository(db);

  const show = async (
    reply: FastifyReply,
    page: PageContext,
    member: Member,
    extra: Partial<SettingsFoldersPageProps>,
    status = 200,
  ) =>
    sendPage(
      reply,
      <SettingsFoldersPage page={page} folders={await folders.list(member.companyId)} {...extra} />,
      status,
    );

  /** The words for a refused name: empty, or the rule's own sentence. */
  const nameProblem = (page: PageContext, name: string, err: unknown): string | undefined => {
    const w = page.words.settings;
    if (err instanceof RecordExistsError) return fill(w.folderExists, { name });
    if (err instanceof RecordInvalidError)
      return name.trim() === '' ? w.folderNameMissing : w.nameInvalid;
    return undefined;
  };

  scope.get(PATH, { schema: { hide: true } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const flash = takeFlash(request, reply, publicUrl, page.words.settings);
    return show(reply, page, member, {
      notice: flash && { kind: flash.kind, text: fill(flash.text, flash.values) },
    });
  });

  scope.post(PATH, { schema: { hide: true, body: NameBody } }, async (request, reply) => {
    const member = await memberOf(request, reply, { admin: true });
    if (!member) return reply;
    const page = pageOf(request);
    const name = (request.body.name ?? '').trim();
    try {
      const folder = await folders.add(member.companyId, name);
      return redirectWithFlash(reply, publicUrl, PATH, {
        key: 'folderAdded',
        values: { name: folder.name },
      });
    } catch (err) {
      const problem = nameProblem(page, name, err);
      if (problem === undefined) throw err;
      return show(reply, page, member, { add: { name, errors: { name: problem } } }, 400);
    }
  });

  scope.post(
    `${PATH}/:id/rename`,
    { schema: { hide: true, params: FolderParams, body: NameBody } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const name = (request.body.name ?? '').trim();
      const { id } = request.params;
      try {
        const folder = await folders.rename(member.companyId, id, name);
        return redirectWithFlash(reply, publicUrl, PATH, {
          key: 'folderRenamed',
          values: { name: folder.name },
        });
      } catch (err) {
        if (err instanceof RecordNotFoundError) return sendProblem(reply, page, 'notFound');
        const problem = nameProblem(page, name, err);
        if (problem === undefined) throw err;
        return show(reply, page, member, { rename: { id, name, error: problem } }, 400);
      }
    },
  );

  scope.post(
    `${PATH}/:id/default`,
    { schema: { hide: true, params: FolderParams, body: Type.Object(CSRF) } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      try {
        const folder = await folders.setDefault(member.companyId, request.params.id);
        return redirectWithFlash(reply, publicUrl, PATH, {
          key: 'folderMadeDefault',
          values: { name: folder.name },
        });
      } catch (err) {
        if (err instanceof RecordNotFoundError)
          return sendProblem(reply, pageOf(request), 'notFound');
        throw err;
      }
    },
  );

  scope.post(
    `${PATH}/:id/delete`,
    { schema: { hide: true, params: FolderParams, body: Type.Object(CSRF) } },
    async (request, reply) => {
      const member = await memberOf(request, reply, { admin: true });
      if (!member) return reply;
      const page = pageOf(request);
      const w = page.words.settings;
      try {
        const folder = await folders.remove(member.companyId, request.params.id);
        return redirectWithFlash(reply, publicUrl, PATH, {
          key: 'folderDeleted',
          values: { name: folder.name },
        });
      } catch (err) {
        if (err instanceof RecordNotFoundError) return sendProblem(reply, page, 'notFound');
        if (err instanceof FolderNotEmptyError) {
          const text = fill(err.reason === 'is-default' ? w.folderIsDefault : w.folderHasCases, {
            name: err.folder,
          });
          return show(reply, page, member, { notice: { kind: 'problem', text } }, 409);
        }
        throw err;
      }
    },
  );
};
