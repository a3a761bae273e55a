import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { describe, expect, it, vi } from 'vitest';
import { toneMp3 } from '../../tests/fake-service/audio';
import { mp3Duration, scanMp3Frames } from './mp3-frames';
import { initSegmentOf, Mp3ToFmp4, sameBytes, withoutTimes } from './mp3-fmp4';

/** Top-level ISO BMFF box types in order. */
function boxTypes(bytes: Uint8Array): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const size = view.getUint32(at);
    types.push(String.fromCharCode(...bytes.subarray(at + 4, at + 8)));
    if (size < 8) break;
    at += size;
  }
  return types;
}

async function wrapInChunks(mp3: Uint8Array, chunk: number): Promise<{ pieces: Uint8Array[]; all: Uint8Array }> {
  const wrap = new Mp3ToFmp4();
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < mp3.length; at += chunk) {
    const out = await wrap.push(mp3.subarray(at, at + chunk));
    if (out) pieces.push(out);
  }
  const last = await wrap.end();
  if (last) pieces.push(last);
  const all = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of pieces) {
    all.set(p, at);
    at += p.length;
  }
  return { pieces, all };
}

describe('Mp3ToFmp4', () => {
  it.each([
    ['one write', 1 << 30],
    ['network-sized chunks', 1400],
    ['417-byte chunks, cutting frames anywhere', 417],
  ])('carries every MP3 frame unchanged into fragmented MP4 (%s)', async (_name, chunk) => {
    const mp3 = toneMp3(3000);
    const { all } = await wrapInChunks(mp3, chunk);
    const types = boxTypes(all);
    expect(types.slice(0, 2)).toEqual(['ftyp', 'moov']);
    expect(types.slice(2).every((t, i) => t === (i % 2 === 0 ? 'moof' : 'mdat'))).toBe(true);
    expect(types.length).toBeGreaterThan(10); // short fragments, not one at the end

    const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(all) });
    const track = (await input.getPrimaryAudioTrack())!;
    expect(track.codec).toBe('mp3');
    expect(await track.computeDuration()).toBeCloseTo(mp3Duration(mp3), 3);
    const frames = scanMp3Frames(mp3).frames;
    let n = 0;
    for await (const packet of new EncodedPacketSink(track).packets()) {
      const f = frames[n++]!;
      expect(packet.data).toEqual(mp3.subarray(f.offset, f.offset + f.length));
    }
    expect(n).toBe(frames.length);
  });

  it('gives playable output before the part has ended (first fragment after ~0.1 s of audio)', async () => {
    const mp3 = toneMp3(3000);
    const wrap = new Mp3ToFmp4();
    // 0.3 s of audio at 64 kbit/s mono is ~2.4 KB: the init segment and a first fragment are out by then.
    const out = await wrap.push(mp3.subarray(0, 3000));
    expect(out && boxTypes(out)).toEqual(expect.arrayContaining(['ftyp', 'moov', 'moof', 'mdat']));
  });

  it('skips an ID3 tag split across writes, and gives nothing for a part with no audio', async () => {
    const mp3 = toneMp3(500);
    const id3 = new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 3, 1, 2, 3]);
    const withTag = new Uint8Array([...id3, ...mp3]);
    // 5 bytes: not even the tag's header; 6 more: the header but not the whole tag; then the rest.
    const wrap = new Mp3ToFmp4();
    const pieces = [await wrap.push(withTag.subarray(0, 5)), await wrap.push(withTag.subarray(5, 11)), await wrap.push(withTag.subarray(11)), await wrap.end()];
    expect(pieces.slice(0, 2)).toEqual([null, null]);
    expect(await packetsOf(concatAll(pieces))).toEqual(framesOf(mp3));

    const empty = new Mp3ToFmp4();
    expect(await empty.push(new TextEncoder().encode('{"error":"x"}'))).toBeNull();
    expect(await empty.end()).toBeNull();
  });

  it("warmed before its first bytes (the player's load): the same boxes; warmed and given no audio: nothing, no error", async () => {
    const mp3 = toneMp3(1000);
    const cold = new Mp3ToFmp4();
    const warm = new Mp3ToFmp4();
    await warm.warm();
    const out = async (w: Mp3ToFmp4) => concatAll([await w.push(mp3), await w.end()]);
    expect(await out(warm)).toEqual(await out(cold));

    const unused = new Mp3ToFmp4();
    await unused.warm();
    expect(await unused.end()).toBeNull();
  });

  it('after a cut mid-frame, restart() drops the cut frame: the rest of the part follows with no spliced frame', async () => {
    const first = toneMp3(1000);
    const rest = toneMp3(700);
    const cutAt = scanMp3Frames(first).frames[20]!.offset + 50; // inside frame 21
    const wrap = new Mp3ToFmp4();
    const pieces = [await wrap.push(first.subarray(0, cutAt))];
    wrap.restart();
    pieces.push(await wrap.push(rest), await wrap.end());
    expect(await packetsOf(concatAll(pieces))).toEqual([...framesOf(first).slice(0, 20), ...framesOf(rest)]);
  });
});

function framesOf(mp3: Uint8Array): Uint8Array[] {
  return scanMp3Frames(mp3).frames.map((f) => mp3.slice(f.offset, f.offset + f.length));
}

async function packetsOf(mp4: Uint8Array): Promise<Uint8Array[]> {
  const track = (await new Input({ formats: ALL_FORMATS, source: new BufferSource(mp4) }).getPrimaryAudioTrack())!;
  const out: Uint8Array[] = [];
  for await (const packet of new EncodedPacketSink(track).packets()) out.push(packet.data.slice());
  return out;
}

function concatAll(pieces: Array<Uint8Array | null>): Uint8Array {
  const parts = pieces.filter((p): p is Uint8Array => !!p);
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

describe('the init segment a wrapped part begins with', () => {
  it('is its ftyp and moov, the same bytes for every part of one format, so the player can append it ahead once', async () => {
    const a = (await wrapInChunks(toneMp3(1500), 2048)).pieces[0]!;
    const b = (await wrapInChunks(toneMp3(900), 1 << 30)).pieces[0]!;
    const initA = initSegmentOf(a)!;
    expect(boxTypes(initA)).toEqual(['ftyp', 'moov']);
    expect(boxTypes(a.subarray(initA.length))[0]).toBe('moof');
    expect(sameBytes(initA, initSegmentOf(b)!)).toBe(true);
  });

  it('has its times written as 0 in version 1 boxes too (64-bit times), the rest untouched', () => {
    const box = (type: string, body: Uint8Array) => {
      const out = new Uint8Array(8 + body.length);
      new DataView(out.buffer).setUint32(0, out.length);
      out.set([...type].map((c) => c.charCodeAt(0)), 4);
      out.set(body, 8);
      return out;
    };
    const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
    // version 1, flags, creation (8), modification (8), timescale (4), duration (8), then more
    const v1 = (fill: number) => cat(Uint8Array.of(1, 0, 0, 0), new Uint8Array(16).fill(fill), Uint8Array.of(0, 0, 0x03, 0xe8), new Uint8Array(8).fill(7));
    const v0 = (fill: number) => cat(Uint8Array.of(0, 0, 0, 0), new Uint8Array(8).fill(fill), Uint8Array.of(0, 0, 0x03, 0xe8), new Uint8Array(4).fill(7));
    const moov = box('moov', cat(box('mvhd', v1(9)), box('trak', cat(box('tkhd', v0(9)), box('mdia', box('mdhd', v1(9)))))));
    const zeroed = box('moov', cat(box('mvhd', v1(0)), box('trak', cat(box('tkhd', v0(0)), box('mdia', box('mdhd', v1(0)))))));
    expect([...withoutTimes(moov)]).toEqual([...zeroed]);
    expect(moov).not.toEqual(zeroed);
  });

  it('is the same bytes whatever second the part was wrapped in (its times are 0)', async () => {
    const now = vi.spyOn(Date, 'now');
    try {
      now.mockReturnValue(Date.UTC(2026, 10, 26, 9, 0, 0));
      const a = (await wrapInChunks(toneMp3(900), 2048)).pieces[0]!;
      now.mockReturnValue(Date.UTC(2026, 10, 26, 9, 5, 7));
      const b = (await wrapInChunks(toneMp3(900), 2048)).pieces[0]!;
      expect(sameBytes(initSegmentOf(a)!, initSegmentOf(b)!)).toBe(true);
    } finally {
      now.mockRestore();
    }
  });

  it.each([
    ['a fragment alone', (p: Uint8Array) => p.subarray(initSegmentOf(p)!.length)],
    ['a cut box', (p: Uint8Array) => p.subarray(0, 12)],
  ])('is not found in %s', async (_name, cut) => {
    const first = (await wrapInChunks(toneMp3(900), 2048)).pieces[0]!;
    expect(initSegmentOf(cut(first))).toBeNull();
  });
});
