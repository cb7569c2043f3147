import { describe, expect, it } from 'vitest';
import {
  COMPANY_ID_MAX_CHARS,
  COMPANY_ID_RULE,
  companyIdProblem,
  isCompanyId,
} from '../../src/service/tenancy/index.js';
import { newKeyProblems } from '../../src/service/keys/index.js';
import { fillClientOptions, jobDataProblems } from '../../src/jobs/queue/index.js';
import {
  parseStoredDocumentKey,
  storedDocumentKey,
  storedDocumentUrl,
  parseStoredDocumentUrl,
} from '../../src/render/storage/index.js';
import { CompanyParams } from '../../src/surfaces/http/files/files-schemas.js';

const good = ['acme', '7', 'Acme-Corp_2.eu', 'a'.repeat(COMPANY_ID_MAX_CHARS)];
/** Each broke the old storage rule's looser check (any text of 1 to 128 bytes) or the pattern. */
const bad = ['', '-acme', '.acme', 'acme corp', 'acme/eu', 'æble', 'a\n', 'a'.repeat(129)];
/** Ids the storage accepted before it took the one rule, which keys and the queue refused. */
const storageOnly = ['acme corp', 'acme/eu', 'æble', '-acme'];
const sha = 'ab'.repeat(32);

describe('company id: one rule for keys, storage, the queue and HTTP', () => {
  it('says what it asks, and what it got', () => {
    for (const id of good) expect(isCompanyId(id), id).toBe(true);
    for (const id of bad) expect(isCompanyId(id), JSON.stringify(id)).toBe(false);
    expect(isCompanyId(7)).toBe(false);
    expect(companyIdProblem('acme')).toBeUndefined();
    expect(companyIdProblem('acme corp')).toBe(
      `company id must be 1 to 128 letters, digits, ".", "_" or "-", starting with a letter or digit (got "acme corp")`,
    );
  });

  it('API keys take a company only by the rule', () => {
    for (const id of bad)
      expect(
        newKeyProblems({ company: id, user: 'ci@acme.example', name: 'ci' }),
        JSON.stringify(id),
      ).toEqual([{ field: 'company', message: COMPANY_ID_RULE }]);
    expect(newKeyProblems({ company: good[2], user: 'ci@acme.example', name: 'ci' })).toEqual([]);
  });

  it('storage names, and reads back, documents only of a company by the rule', () => {
    for (const id of storageOnly) {
      expect(() => storedDocumentKey(id, sha, 'pdf'), id).toThrow(companyIdProblem(id));
      // A key written under the old, looser rule is no stored document of anyone's now.
      const hex = Buffer.from(id, 'utf8').toString('hex');
      expect(parseStoredDocumentKey(`companies/${hex}/uploads/${sha}.pdf`), id).toBeUndefined();
    }
    for (const id of good) {
      const key = storedDocumentKey(id, sha, 'pdf');
      expect(parseStoredDocumentKey(key)?.company).toBe(id);
      const url = storedDocumentUrl('https://docpipe.example', key);
      expect(parseStoredDocumentUrl(url, 'https://docpipe.example')).toEqual({ company: id, key });
    }
  });

  it('the queue takes jobs and clients only of a company by the rule', () => {
    const job = { v: 1, field: 'documents[0]', name: 'Lease', source: { inline: 'UEsDBA==' } };
    expect(jobDataProblems({ ...job, company: 'acme' })).toEqual([]);
    expect(jobDataProblems({ ...job, company: 'acme corp' })).toEqual([
      { field: 'documents[0].company', message: COMPANY_ID_RULE },
    ]);
    expect(() => fillClientOptions({ redisUrl: 'redis://x', company: 'acme corp' })).toThrow(
      `company ${COMPANY_ID_RULE}`,
    );
  });

  it("HTTP's company path parameter has the rule's length", () => {
    expect((CompanyParams.properties.company as { maxLength?: number }).maxLength).toBe(
      COMPANY_ID_MAX_CHARS,
    );
  });
});
