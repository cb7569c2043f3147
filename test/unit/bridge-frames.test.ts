import { describe, expect, it, vi } from 'vitest';
import { BridgeFrames } from '../../src/render/convert/bridge-frames.js';

function stream(): Buffer {
  const pdf = Buffer.from('%PDF-1.4\n\x00\xff binary\nwith lines\n%%EOF\n', 'latin1');
  return Buffer.concat([
    Buffer.from('{"ready": true, "ms": 5}\n'),
    Buffer.from('a stray line that is no JSON\n'),
    Buffer.from(`{"id": 1, "ok": true, "bytes": ${pdf.length}}\n`),
    pdf,
    Buffer.from('{"id": 2, "ok": false, "error": "load-failed", "bytes": 0}\n'),
    Buffer.from('[1, 2]\n'),
    Buffer.from(`{"id": 3, "ok": true, "bytes": ${pdf.length}}\n`),
    pdf,
  ]);
}

describe('bridge frames', () => {
  it('reads lines and the bytes they announce, however the stream is cut', () => {
    const whole = stream();
    const expected: unknown[] = [];
    new BridgeFrames((h, p) => expected.push([h, p.toString('latin1')])).push(whole);
    expect(expected).toHaveLength(4);
    expect(expected[1]).toEqual([
      { id: 1, ok: true, bytes: expect.any(Number) },
      expect.stringContaining('%%EOF'),
    ]);
    expect(expected[2]).toEqual([{ id: 2, ok: false, error: 'load-failed', bytes: 0 }, '']);
    for (const size of [1, 2, 3, 7, 16, 50]) {
      const got: unknown[] = [];
      const frames = new BridgeFrames((h, p) => got.push([h, p.toString('latin1')]));
      for (let i = 0; i < whole.length; i += size) frames.push(whole.subarray(i, i + size));
      expect(got, `chunks of ${size}`).toEqual(expected);
    }
  });

  it('joins a large document once, not on every chunk', () => {
    const size = 64 * 1024 * 1024;
    const got: Buffer[] = [];
    const frames = new BridgeFrames((_h, p) => got.push(p));
    frames.push(Buffer.from(`{"id": 1, "ok": true, "bytes": ${size}}\n`));
    const chunk = Buffer.alloc(64 * 1024, 7);
    // Joining the whole buffer again for each of 1024 chunks would copy about 32 GiB.
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      for (let sent = 0; sent < size; sent += chunk.length) frames.push(chunk);
      expect(concat).toHaveBeenCalledTimes(1);
    } finally {
      concat.mockRestore();
    }
    expect(got).toHaveLength(1);
    expect(got[0]!.length).toBe(size);
    expect(got[0]![size - 1]).toBe(7);
  });

  it('waits for the rest of a document before giving it out', () => {
    const got: unknown[] = [];
    const frames = new BridgeFrames((h) => got.push(h));
    frames.push(Buffer.from('{"id": 1, "ok": true, "bytes": 10}\n12345'));
    expect(got).toEqual([]);
    frames.push(Buffer.from('67890{"id"'));
    expect(got).toEqual([{ id: 1, ok: true, bytes: 10 }]);
  });
});
