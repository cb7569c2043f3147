import { describe, expect, it } from 'vitest';
import { certificateSerial } from '../../src/formats/pades/self-signed-p12.js';

describe('certificateSerial', () => {
  it('is positive and minimal DER whatever the random bytes (OpenSSL refuses a leading zero)', () => {
    for (const fill of [0x00, 0x01, 0x7f, 0x80, 0xff]) {
      const serial = certificateSerial(new Uint8Array(16).fill(fill));
      expect(serial).toHaveLength(16);
      expect(serial[0]).toBeGreaterThan(0);
      expect(serial[0]).toBeLessThan(0x80);
      expect(Array.from(serial.subarray(1))).toEqual(new Array(15).fill(fill));
    }
  });

  it('leaves the random bytes it was given as they were', () => {
    const random = new Uint8Array(16);
    certificateSerial(random);
    expect(random[0]).toBe(0);
  });
});
