import { describe, expect, it } from 'vitest';
import { pickPlayerFormat } from './page-sink';
import { FMP4_MP3_MIME } from './mp3-fmp4';

describe('pickPlayerFormat', () => {
  it.each([
    ['Chrome: MP3 as it comes', ['audio/mpeg', FMP4_MP3_MIME], 'audio/mpeg', false],
    ['Firefox: MP3 inside fragmented MP4', [FMP4_MP3_MIME], FMP4_MP3_MIME, true],
  ])('%s', (_name, supported, mime, wrapped) => {
    const format = pickPlayerFormat((t) => supported.includes(t));
    expect(format.mime).toBe(mime);
    expect(!!format.wrap).toBe(wrapped);
  });

  it('says so when neither works', () => {
    expect(() => pickPlayerFormat(() => false)).toThrow(/cannot stream MP3/);
  });
});
