import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { describe, expect, it } from 'vitest';
import { toneMp3 } from '../tests/fake-service/audio';
import { mp3Duration, scanMp3Frames } from './mp3-frames';
import { Mp3ToFmp4 } from './mp3-fmp4';

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
    ['single bytes at frame edges', 417],
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
    const wrap = new Mp3ToFmp4();
    expect(await wrap.push(id3.subarray(0, 5))).toBeNull();
    await wrap.push(new Uint8Array([...id3.subarray(5), ...mp3]));
    const all = await wrapInChunks(new Uint8Array([...id3, ...mp3]), 100);
    const track = (await new Input({ formats: ALL_FORMATS, source: new BufferSource(all.all) }).getPrimaryAudioTrack())!;
    expect(await track.computeDuration()).toBeCloseTo(mp3Duration(mp3), 3);

    const empty = new Mp3ToFmp4();
    expect(await empty.push(new TextEncoder().encode('{"error":"x"}'))).toBeNull();
    expect(await empty.end()).toBeNull();
  });
});
