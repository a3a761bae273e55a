import { describe, expect, it } from 'vitest';
import { mobiEncrypted, sniffBook } from './sniff';
import { epubLocked } from './drm';

const bytes = (s: string) => new Uint8Array([...s].map((c) => c.charCodeAt(0) & 0xff));
/** A Palm database header naming `type` at offset 60, its first record at 96 with encryption type `enc`. */
function palm(type: string, enc: number): Uint8Array {
  const b = new Uint8Array(200);
  b.set(bytes(type), 60);
  new DataView(b.buffer).setUint32(78, 96);
  new DataView(b.buffer).setUint16(96 + 12, enc);
  return b;
}

describe('what kind of book a file is, from its first bytes', () => {
  it.each([
    ['a zip (EPUB, FBZ)', bytes('PK\x03\x04rest'), 'zip'],
    ['FB2 in UTF-8 with a declaration', bytes('<?xml version="1.0" encoding="utf-8"?>\n<FictionBook xmlns="x">'), 'fb2'],
    ['FB2 after a byte-order mark', bytes('\xEF\xBB\xBF<FictionBook>'), 'fb2'],
    ['a MOBI', palm('BOOKMOBI', 0), 'mobi'],
    ['a PalmDOC', palm('TEXtREAd', 0), 'mobi'],
    ['a KFX under DRM', bytes('\xEADRMION\xEE...'), 'kindle-drm'],
    ['a KFX container', bytes('CONT\x02\x00'), 'kindle-other'],
    ['a text file', bytes('Just some text'), 'unknown'],
    ['an HTML page', bytes('<!doctype html><html>'), 'unknown'],
    ['nothing', new Uint8Array(0), 'unknown'],
  ])('%s', (_name, head, kind) => expect(sniffBook(head)).toBe(kind));

  it.each([
    ['not encrypted', 0, false],
    ['old Mobipocket encryption', 1, true],
    ['Mobipocket encryption', 2, true],
  ])('a MOBI %s', (_name, enc, locked) => expect(mobiEncrypted(palm('BOOKMOBI', enc))).toBe(locked));
});

describe('whether an EPUB is locked by DRM', () => {
  const enc = (algorithm: string) => `<encryption><enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/></enc:EncryptedData></encryption>`;
  it.each([
    ['no encryption.xml', [], null, false],
    ['fonts obfuscated (IDPF)', [], enc('http://www.idpf.org/2008/embedding'), false],
    ['fonts obfuscated (Adobe)', [], enc('http://ns.adobe.com/pdf/enc#RC'), false],
    ['chapters encrypted with AES', [], enc('http://www.w3.org/2001/04/xmlenc#aes128-cbc'), true],
    ['an Adobe license', ['META-INF/rights.xml'], null, true],
    ['a Readium LCP license', ['META-INF/license.lcpl'], null, true],
    ['Apple FairPlay', ['META-INF/sinf.xml'], null, true],
  ] as const)('%s', (_name, names, encryption, locked) => expect(epubLocked(names, encryption)).toBe(locked));
});
