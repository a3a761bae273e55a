/**
 * `npx tsx bench/decode-pieces.ts`: can a part's audio be decoded for its word timings a piece at a time
 * (the bytes from a frame a little before the words not yet timed), and do the piece's samples fall where
 * the whole part's do? A part as the service sends it (MP3 from the local service's encoder) is decoded whole
 * and from cuts every ~5 s, each cut with `lead` frames decoded before it and dropped; for each, the lag
 * (in samples) at which the piece's samples best match the whole's, against where the frames put them,
 * and the largest difference once aligned (the whole's samples are within ±1).
 * Needs the test builds (`npx wxt build --mode test`, `npx wxt build -b firefox --mode test`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { inBothBrowsers } from './decode.ts';
import { renderSpeech } from '../tests/fake-service/audio.ts';
import { id3Length, scanMp3Frames } from '../utils/audio/mp3-frames.ts';

const LEADS = [0, 1, 2, 4, 8];
const RATE = 22_050;

interface Cut {
  frame: number;
  lead: number;
  /** Where the frames before the piece put its first sample, at `RATE`. */
  expected: number;
  /** Where it matched best. */
  found: number;
  /** The largest difference from the whole's samples after the lead, aligned at `expected`. */
  worst: number;
}

async function piecesInPage({ base64, cuts, rate }: { base64: string; cuts: Array<{ frame: number; lead: number; from: number; expected: number }>; rate: number }) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const decode = async (b: Uint8Array) => (await new OfflineAudioContext(1, 1, rate).decodeAudioData(b.slice().buffer)).getChannelData(0);
  const whole = await decode(bytes);
  const out: Array<{ frame: number; lead: number; expected: number; found: number; worst: number; wholeLength: number }> = [];
  for (const c of cuts) {
    const piece = await decode(bytes.subarray(c.from));
    // Compared from a tenth of a second in (after the lead) for 2 s.
    const skip = Math.round(rate * 0.1) + (c.expected > 0 ? 0 : 0);
    const span = Math.min(rate * 2, piece.length - skip - 4000);
    let best = Infinity;
    let found = 0;
    for (let lag = -3000; lag <= 3000; lag++) {
      let sum = 0;
      for (let t = skip; t < skip + span; t += 4) {
        const w = whole[c.expected + lag + t];
        if (w === undefined) { sum = Infinity; break; }
        const d = piece[t]! - w;
        sum += d * d;
      }
      if (sum < best) [best, found] = [sum, lag];
    }
    let worst = 0;
    for (let t = skip; t < skip + span; t++) worst = Math.max(worst, Math.abs(piece[t]! - (whole[c.expected + t] ?? 0)));
    out.push({ frame: c.frame, lead: c.lead, expected: c.expected, found: c.expected + found, worst: Math.round(worst * 1000) / 1000, wholeLength: whole.length });
  }
  return out;
}

async function main() {
  const text = readFileSync(resolve(import.meta.dirname, '../tests/corpus-expected/ru/aif-france.txt'), 'utf8').replace(/\s+/g, ' ').slice(0, 2000);
  const { bytes } = await renderSpeech(text, 'mp3');
  const { frames } = scanMp3Frames(bytes, id3Length(bytes));
  const perFrame = (frames[0]!.samples * RATE) / frames[0]!.sampleRate;
  const cuts: Array<{ frame: number; lead: number; from: number; expected: number }> = [];
  const every = Math.round((5 * frames[0]!.sampleRate) / frames[0]!.samples);
  for (let frame = every; frame < frames.length - every; frame += every) {
    for (const lead of LEADS) cuts.push({ frame, lead, from: frames[frame - lead]!.offset, expected: Math.round((frame - lead) * perFrame) });
  }
  console.log(`${frames.length} frames of ${frames[0]!.samples} samples at ${frames[0]!.sampleRate} Hz, ${frames[0]!.length} bytes; cuts at ${cuts.length / LEADS.length} places`);
  const base64 = Buffer.from(bytes).toString('base64');
  const report = (name: string, rows: Cut[]) => {
    for (const lead of LEADS) {
      const mine = rows.filter((r) => r.lead === lead);
      console.log(`${name}, lead ${lead}: found − expected ${mine.map((r) => r.found - r.expected).join(' ')}; worst difference ${mine.map((r) => r.worst).join(' ')}`);
    }
  };
  for (const { browser, result: rows } of await inBothBrowsers(piecesInPage, { base64, cuts, rate: RATE })) {
    console.log(`${browser}: whole ${rows[0]!.wholeLength} samples, frames × ${perFrame} = ${Math.round(frames.length * perFrame)}`);
    report(browser, rows);
  }
}

await main();
