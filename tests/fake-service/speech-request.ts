/** Parsing and validation of the POST /v1/speech body, in the order the service checks. */
import { AUDIO_FORMATS, type AudioFormat } from './audio.ts';

export const MAX_TEXT_CHARS = 10_000;
export const VOICES = ['sasha-lite'] as const;
export const MODELS = ['flash'] as const;

export interface SpeechRequest {
  text: string;
  voice: string;
  model: string;
  format: AudioFormat;
  stream: boolean;
  previousText: string | null;
  nextText: string | null;
}

export interface RequestError {
  status: number;
  code: string;
  message: string;
}

export type ParsedSpeech = { ok: true; request: SpeechRequest } | { ok: false; error: RequestError };

const invalid = (message: string): ParsedSpeech => ({ ok: false, error: { status: 422, code: 'invalid_request', message } });
const rejected = (code: string, message: string): ParsedSpeech => ({ ok: false, error: { status: 422, code, message } });

/** Letters other than Russian (А-Я а-я Ё ё) and basic Latin ones. */
const FOREIGN_LETTER = /(?![А-Яа-яЁёA-Za-z])\p{L}/gu;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The body as JSON, or undefined when it is not JSON. */
export function parseJson(raw: string): Json | undefined {
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return undefined;
  }
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Optional fields may be absent or null; anything else of the wrong type is a malformed body. */
function optionalOfType(body: { [key: string]: Json }, field: string, type: 'string' | 'boolean'): Json | undefined | Error {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  return typeof value === type ? value : new Error(`"${field}" must be a ${type}`);
}

function typeErrors(body: { [key: string]: Json }): string | null {
  if (!('text' in body)) return '"text" is required';
  if (typeof body.text !== 'string') return '"text" must be a string';
  if (body.text.length === 0) return '"text" must not be empty';
  const fields = [
    ['voice', 'string'],
    ['model', 'string'],
    ['format', 'string'],
    ['stream', 'boolean'],
    ['previous_text', 'string'],
    ['next_text', 'string'],
  ] as const;
  for (const [field, type] of fields) {
    const checked = optionalOfType(body, field, type);
    if (checked instanceof Error) return checked.message;
  }
  return null;
}

function optionalString(body: { [key: string]: Json }, field: string): string | null {
  const value = body[field];
  return typeof value === 'string' ? value : null;
}

function toRequest(body: { [key: string]: Json }): SpeechRequest {
  return {
    text: body.text as string,
    voice: optionalString(body, 'voice') ?? VOICES[0],
    model: optionalString(body, 'model') ?? MODELS[0],
    format: (optionalString(body, 'format') ?? 'mp3') as AudioFormat,
    stream: body.stream === true,
    previousText: optionalString(body, 'previous_text'),
    nextText: optionalString(body, 'next_text'),
  };
}

function optionErrors(request: SpeechRequest): ParsedSpeech | null {
  if (!(VOICES as readonly string[]).includes(request.voice)) return rejected('unknown_voice', `Unknown voice "${request.voice}"`);
  if (!(MODELS as readonly string[]).includes(request.model)) return rejected('unknown_model', `Unknown model "${request.model}"`);
  if (!AUDIO_FORMATS.includes(request.format)) return rejected('unknown_format', `Unknown format "${request.format}"`);
  return null;
}

function textErrors(text: string, rejectTexts: readonly string[]): ParsedSpeech | null {
  const chars = [...text].length;
  if (chars > MAX_TEXT_CHARS) return rejected('text_too_long', `Text has ${chars} characters; the limit is ${MAX_TEXT_CHARS}`);
  const foreign = [...new Set(text.match(FOREIGN_LETTER) ?? [])];
  if (foreign.length > 0) {
    return rejected('unsupported_language', `Only Russian and English text is supported; found: ${foreign.slice(0, 10).join(' ')}`);
  }
  if (rejectTexts.some((needle) => needle !== '' && text.includes(needle))) return rejected('content_rejected', 'Content rejected');
  return null;
}

/** Validates a speech body: invalid_request, unknown_*, text_too_long, unsupported_language, content_rejected. */
export function parseSpeechBody(body: Json | undefined, rejectTexts: readonly string[]): ParsedSpeech {
  if (body === undefined) return invalid('Body is not valid JSON');
  if (!isObject(body)) return invalid('Body must be a JSON object');
  const typeError = typeErrors(body);
  if (typeError) return invalid(typeError);
  const request = toRequest(body);
  return optionErrors(request) ?? textErrors(request.text, rejectTexts) ?? { ok: true, request };
}

export type { Json };
