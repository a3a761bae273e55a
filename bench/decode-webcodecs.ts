/**
 * `npx tsx bench/decode-webcodecs.ts`: the player's two decoders for word times (`utils/audio/decode.ts`) on the
 * same part, in an extension page of each browser: WebCodecs frame by frame into one kept array, and the Web
 * Audio decoder. For each: the samples (the largest difference from the other's), the time a whole part and a
 * part in 20-s pieces take, and how late a 5 ms timer on the same page runs meanwhile (what the player feels).
 * The module is bundled as it is (Vite) and put in the page. Needs the test builds.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';
import { inBothBrowsers } from './decode.ts';
import { renderSpeech } from '../tests/fake-service/audio.ts';
import { id3Length, scanMp3Frames } from '../utils/audio/mp3-frames.ts';

const RUNS = 3;
const PIECE_S = 20;

interface Side {
  wholeMs: number[];
  piecesMs: number[];
  worstLateMs: number;
  samples: number;
  sampleRate: number;
}

async function inPage({ code, base64, cuts, runs }: { code: string; base64: string; cuts: number[]; runs: number }): Promise<{ webcodecs: Side; offline: Side; maxDiff: number; lag: number }> {
  (0, eval)(code);
  type Decode = (bytes: Uint8Array<ArrayBuffer>) => Promise<{ samples: Float32Array; sampleRate: number }>;
  const m = (globalThis as unknown as { DecodeModule: { frameDecoder(c: unknown, f?: Decode): Decode; browserCodecs(): unknown; offlineDecode: Decode } }).DecodeModule;
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const decoders: Record<'webcodecs' | 'offline', Decode> = { webcodecs: m.frameDecoder(m.browserCodecs(), () => Promise.reject(new Error('WebCodecs did not decode'))), offline: m.offlineDecode };
  const out = {} as Record<'webcodecs' | 'offline', Side>;
  const whole: Record<string, Float32Array> = {};
  for (const name of ['webcodecs', 'offline'] as const) {
    const side: Side = { wholeMs: [], piecesMs: [], worstLateMs: 0, samples: 0, sampleRate: 0 };
    let watching = true;
    let last = performance.now();
    const tick = () => {
      const now = performance.now();
      side.worstLateMs = Math.max(side.worstLateMs, Math.round((now - last - 5) * 10) / 10);
      last = now;
      if (watching) setTimeout(tick, 5);
    };
    setTimeout(tick, 5);
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      const d = await decoders[name](bytes.slice());
      side.wholeMs.push(Math.round(performance.now() - t));
      side.samples = d.samples.length;
      side.sampleRate = d.sampleRate;
      whole[name] = d.samples.slice();
      t = performance.now();
      for (let i = 0; i + 1 < cuts.length; i++) await decoders[name](bytes.slice(cuts[i], cuts[i + 1]));
      side.piecesMs.push(Math.round(performance.now() - t));
    }
    watching = false;
    out[name] = side;
  }
  const a = whole.webcodecs!;
  const b = whole.offline!;
  let maxDiff = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) maxDiff = Math.max(maxDiff, Math.abs(a[i]! - b[i]!));
  return { ...out, maxDiff, lag: a.length - b.length };
}

const text = readFileSync(resolve(import.meta.dirname, '../tests/corpus-expected/ru/aif-france.txt'), 'utf8').replace(/\s+/g, ' ').slice(0, 2000);
const { bytes } = await renderSpeech(text, 'mp3');
const { frames } = scanMp3Frames(bytes, id3Length(bytes));
const perFrameS = frames[0]!.samples / frames[0]!.sampleRate;
const step = Math.round(PIECE_S / perFrameS);
const cuts = [0, ...frames.filter((_, i) => i > 0 && i % step === 0).map((f) => f.offset), bytes.length];
const bundled = (await build({
  configFile: false,
  logLevel: 'silent',
  build: { write: false, minify: false, lib: { entry: resolve(import.meta.dirname, '../utils/audio/decode.ts'), formats: ['iife'], name: 'DecodeModule' } },
})) as Array<{ output: Array<{ type: string; code?: string }> }>;
const code = bundled[0]!.output.find((o) => o.type === 'chunk')!.code!;
const seconds = frames.length * perFrameS;
console.log(`a part of ${seconds.toFixed(1)} s (${bytes.length} bytes, ${frames.length} frames), whole and in ${cuts.length - 1} pieces of ≤ ${PIECE_S} s, ${RUNS} runs`);
for (const { browser, result } of await inBothBrowsers(inPage, { code, base64: Buffer.from(bytes).toString('base64'), cuts, runs: RUNS })) {
  for (const name of ['webcodecs', 'offline'] as const) {
    const s = result[name];
    console.log(`${browser} ${name}: ${s.samples} samples at ${s.sampleRate} Hz; whole ${s.wholeMs.join(', ')} ms; in pieces ${s.piecesMs.join(', ')} ms; a 5 ms timer at most ${s.worstLateMs} ms late`);
  }
  console.log(`${browser}: the two decoders' samples differ by at most ${result.maxDiff} (lengths differ by ${result.lag})`);
}
