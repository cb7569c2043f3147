import { describe, expect, it } from 'vitest';
import { BridgeFrames } from '../../src/render/convert/bridge-frames.js';
import {
  BRIDGE_FAILURE_KINDS,
  BridgeProtocolError,
  encodeRequest,
  parseReply,
  type BridgeReply,
} from '../../src/render/convert/bridge-protocol.js';

const pdf = Buffer.from('%PDF-1.4\n\x00\xff binary\n%%EOF\n', 'latin1');
const none = Buffer.alloc(0);

/** What the frames make of a stream the bridge wrote, parsed. */
function readStream(...parts: (string | Buffer)[]): BridgeReply[] {
  const replies: BridgeReply[] = [];
  const frames = new BridgeFrames((header, payload) => replies.push(parseReply(header, payload)));
  frames.push(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
  return replies;
}

function malformed(header: Record<string, unknown>, payload = none): string {
  try {
    parseReply(header, payload);
  } catch (err) {
    expect(err).toBeInstanceOf(BridgeProtocolError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(header)}`);
}

describe('bridge protocol: replies', () => {
  it('reads every kind of reply as uno-bridge.py writes it', () => {
    // The lines exactly as send() writes them (json.dumps: a space after each colon and comma).
    const replies = readStream(
      '{"ready": true, "ms": 812.4}\n',
      '{"id": 1, "started": true}\n',
      `{"ok": true, "id": 1, "ms": 38.2, "bytes": ${pdf.length}}\n`,
      pdf,
      '{"id": 2, "started": true}\n',
      '{"ok": false, "error": "load-failed", "message": "LibreOffice could not load the document", "id": 2, "ms": 3.1, "bytes": 0}\n',
      '{"ok": true, "id": 3, "ms": 9, "bytes": 0}\n',
    );
    expect(replies).toEqual([
      { kind: 'ready', ms: 812.4 },
      { kind: 'started', id: 1 },
      { kind: 'converted', id: 1, ms: 38.2, pdf },
      { kind: 'started', id: 2 },
      {
        kind: 'failed',
        id: 2,
        error: 'load-failed',
        message: 'LibreOffice could not load the document',
        ms: 3.1,
      },
      // LibreOffice reported success and wrote nothing: the pool says so, not the protocol.
      { kind: 'converted', id: 3, ms: 9, pdf: none },
    ]);
  });

  it('takes each failure kind the bridge sends, and only those', () => {
    expect(BRIDGE_FAILURE_KINDS).toEqual(['load-failed', 'convert-failed', 'office-gone']);
    for (const error of BRIDGE_FAILURE_KINDS) {
      const header = { id: 4, ok: false, error, message: 'm', ms: 1, bytes: 0 };
      expect(parseReply(header, none)).toMatchObject({ kind: 'failed', error });
    }
    expect(
      malformed({ id: 4, ok: false, error: 'timeout', message: 'm', ms: 1, bytes: 0 }),
    ).toMatch(/malformed failed reply \(error must be one of load-failed, convert-failed/);
  });

  it('refuses a reply that is none of the kinds, saying what it got', () => {
    expect(malformed({ id: 1, done: true })).toBe(
      'the UNO bridge sent an unknown reply (no ready, started or boolean ok): {"id":1,"done":true}',
    );
    expect(malformed({ id: 1, ok: 'yes', bytes: 0 })).toMatch(/^the UNO bridge sent an unknown/);
    expect(malformed({})).toMatch(/unknown reply/);
  });

  it.each([
    [{ ready: false, ms: 1 }, 'malformed ready reply (ready must be true)'],
    [{ ready: true }, 'malformed ready reply (missing field ms)'],
    [{ ready: true, ms: -1 }, 'malformed ready reply (ms must be a number of milliseconds)'],
    [{ ready: true, ms: 1, id: 1 }, 'malformed ready reply (unexpected field id)'],
    [{ id: 1, started: 'yes' }, 'malformed started reply (started must be true)'],
    [{ id: 0, started: true }, 'malformed started reply (id must be a positive integer)'],
    [{ id: 1.5, started: true }, 'malformed started reply (id must be a positive integer)'],
    [{ id: '1', started: true }, 'malformed started reply (id must be a positive integer)'],
    [{ started: true }, 'malformed started reply (missing field id)'],
    [{ id: 1, started: true, ok: true }, 'malformed started reply (unexpected field ok)'],
    [{ id: 1, ok: true, bytes: 0 }, 'malformed converted reply (missing field ms)'],
    [{ id: 1, ok: true, ms: '5', bytes: 0 }, 'malformed converted reply (ms must be a number'],
    [{ id: 1, ok: true, ms: 5, bytes: -3 }, 'malformed converted reply (bytes must be 0'],
    [{ id: 1, ok: true, ms: 5, bytes: 1.5 }, 'malformed converted reply (bytes must be 0'],
    [{ id: 1, ok: true, ms: 5, bytes: 0, error: 'x' }, 'converted reply (unexpected field error)'],
    [{ id: 1, ok: false, error: 'load-failed', ms: 1, bytes: 0 }, '(missing field message)'],
    [
      { id: 1, ok: false, error: 'load-failed', message: 7, ms: 1, bytes: 0 },
      'malformed failed reply (message must be a string)',
    ],
    [
      { id: 1, ok: false, error: 'load-failed', message: 'm', ms: 1, bytes: 9 },
      'malformed failed reply (bytes must be 0, the size of what followed)',
    ],
  ])('refuses %j as malformed', (header, problem) => {
    expect(malformed(header)).toContain(problem);
  });

  it('refuses a converted reply whose bytes do not match what followed', () => {
    expect(malformed({ id: 1, ok: true, ms: 5, bytes: 10 }, pdf)).toContain(
      `(bytes must be ${pdf.length}, the size of what followed)`,
    );
  });

  it('quotes a long reply only in part', () => {
    const message = malformed({ ready: true, ms: 1, junk: 'x'.repeat(5000) });
    expect(message.length).toBeLessThan(300);
    expect(message.endsWith('...')).toBe(true);
  });
});

describe('bridge protocol: requests', () => {
  it('writes a conversion as its line and the document after it, as serve() reads them', () => {
    const docx = Buffer.from('PK\x03\x04 a document');
    const [line, payload] = encodeRequest({ kind: 'convert', id: 7, docx, title: 'Lease' });
    expect(line).toBe(`{"id":7,"bytes":${docx.length},"title":"Lease"}\n`);
    expect(payload).toBe(docx);
    const [plain] = encodeRequest({ kind: 'convert', id: 8, docx, pdfa: true });
    expect(JSON.parse(plain)).toEqual({ id: 8, bytes: docx.length, pdfa: true });
  });

  it('writes a new office pid as a watch line with nothing after it', () => {
    expect(encodeRequest({ kind: 'watch', pid: 4321 })).toEqual(['{"watch":4321}\n']);
  });
});
