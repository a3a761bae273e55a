import { describe, expect, it } from 'vitest';
import { checkBaseUrl, originPattern } from './base-url';

describe('checkBaseUrl', () => {
  it.each([
    ['https://api.trysasha.ru', { ok: true, baseUrl: 'https://api.trysasha.ru', isDefault: true, loopback: false }],
    ['https://api.trysasha.ru/', { ok: true, baseUrl: 'https://api.trysasha.ru', isDefault: true }],
    ['  https://proxy.example.com/tts/ ', { ok: true, baseUrl: 'https://proxy.example.com/tts', isDefault: false }],
    ['http://127.0.0.1:8787', { ok: true, baseUrl: 'http://127.0.0.1:8787', loopback: true }],
    ['http://localhost:3000/', { ok: true, baseUrl: 'http://localhost:3000', loopback: true }],
    ['https://api.trysasha.ru/v1', { ok: true, baseUrl: 'https://api.trysasha.ru', isDefault: true }],
    ['https://api.trysasha.ru/v1/', { ok: true, baseUrl: 'https://api.trysasha.ru', isDefault: true }],
    ['https://proxy.example.com/tts/V1', { ok: true, baseUrl: 'https://proxy.example.com/tts' }],
    ['http://[::1]:8787', { ok: false, reason: 'insecure' }],
    ['http://127.0.0.2:8787', { ok: false, reason: 'insecure' }],
    ['https://api.trysasha.ru.evil.example', { ok: true, isDefault: false }],
    ['http://api.trysasha.ru', { ok: false, reason: 'insecure' }],
    ['http://192.168.1.5', { ok: false, reason: 'insecure' }],
    ['ftp://api.trysasha.ru', { ok: false, reason: 'bad-url' }],
    ['api.trysasha.ru', { ok: false, reason: 'bad-url' }],
    ['', { ok: false, reason: 'bad-url' }],
    ['https://user:pw@api.trysasha.ru', { ok: false, reason: 'bad-url' }],
    ['https://api.trysasha.ru/?x=1', { ok: false, reason: 'bad-url' }],
  ])('%j', (input, expected) => {
    expect(checkBaseUrl(input)).toMatchObject(expected);
  });
});

describe('originPattern', () => {
  it.each([
    ['https://proxy.example.com', 'https://proxy.example.com/*'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1/*'],
  ])('%s → %s', (origin, pattern) => expect(originPattern(origin)).toBe(pattern));
});
