import type { CompanyMember } from '../../../service/companies/index.js';
import {
  CheckboxField,
  CsrfField,
  ErrorSummary,
  Field,
  Layout,
  Notice,
  fill,
  type FieldErrors,
  type Member,
  type PageContext,
} from '../pages/index.js';
import { When } from './home-when.js';

export interface MembersPageProps {
  page: PageContext;
  member: Member;
  members: readonly CompanyMember[];
  /** What was just done (a flash), or what was refused (409: the last admin). */
  notice?: { kind: 'done' | 'problem'; text: string } | undefined;
  /** The invite form as sent, with its problems, when it was refused. */
  invite?: { name: string; email: string; admin: boolean; errors: FieldErrors } | undefined;
}

/**
 * `/dashboard/members` (admins): the company's members with their role and whether their
 * invitation is taken, each with make admin/member and remove; and the invite form.
 */
export function MembersPage({ page, member, members, notice, invite }: MembersPageProps) {
  const w = page.words.members;
  const company = member.companyName;
  return (
    <Layout page={page} title={w.title} section="members">
      {notice ? <Notice kind={notice.kind}>{notice.text}</Notice> : null}
      <p>{fill(w.intro, { company })}</p>
      <div class="table-wrap">
        <table class="members">
          <caption class="visually-hidden">{fill(w.listCaption, { company })}</caption>
          <thead>
            <tr>
              <th scope="col">{w.name}</th>
              <th scope="col">{w.email}</th>
              <th scope="col">{w.role}</th>
              <th scope="col">{w.since}</th>
              <th scope="col">{w.invitation}</th>
              <th scope="col">{w.actions}</th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr>
                <th scope="row">
                  {m.name}
                  {m.id === member.userId ? ` ${w.you}` : ''}
                </th>
                <td>{m.email}</td>
                <td>{m.admin ? w.roleAdmin : w.roleMember}</td>
                <td>
                  <When at={m.createdAt} page={page} />
                </td>
                <td>{m.invitationTaken ? w.taken : w.notTaken}</td>
                <td>
                  <div class="row-actions">
                    <form method="post" action={`/dashboard/members/${m.id}/role`}>
                      <CsrfField page={page} />
                      <input type="hidden" name="admin" value={m.admin ? 'false' : 'true'} />
                      <button type="submit" class="secondary">
                        {m.admin ? w.makeMember : w.makeAdmin}
                        <span class="visually-hidden">{`: ${m.name}`}</span>
                      </button>
                    </form>
                    <a class="button danger" href={`/dashboard/members/${m.id}/remove`}>
                      {w.remove}
                      <span class="visually-hidden">{`: ${m.name}`}</span>
                    </a>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section class="card" aria-labelledby="invite">
        <h2 id="invite">{w.invite}</h2>
        <p class="hint">{w.inviteHint}</p>
        <form method="post" action="/dashboard/members" novalidate>
          <CsrfField page={page} />
          {invite ? <ErrorSummary page={page} errors={invite.errors} /> : null}
          <Field
            name="name"
            label={w.name}
            value={invite?.name}
            errors={invite?.errors}
            required
            autocomplete="off"
            maxLength={200}
          />
          <Field
            name="email"
            label={w.email}
            type="email"
            value={invite?.email}
            errors={invite?.errors}
            required
            autocomplete="off"
            maxLength={254}
          />
          <CheckboxField
            name="admin"
            label={w.admin}
            hint={w.adminHint}
            checked={invite?.admin ?? false}
          />
          <div class="actions">
            <button type="submit">{w.inviteButton}</button>
          </div>
        </form>
      </section>
    </Layout>
  );
}
