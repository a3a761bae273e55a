import { describe, expect, it } from 'vitest';
import { narrowerGrants, PAGE_ORIGINS } from './page-access';

describe('access asked for again when click-to-read gives up all sites', () => {
  it.each<[string, string[], string[], string[]]>([
    ['only all sites', [...PAGE_ORIGINS], [], []],
    ['a service address and a queued site', [...PAGE_ORIGINS, 'https://tts.example.ru/*', 'https://news.example.com/*'], [], ['https://tts.example.ru/*', 'https://news.example.com/*']],
    ["the manifest's own stay without asking", [...PAGE_ORIGINS, 'https://api.trysasha.ru/*', 'https://tts.example.ru/*'], ['https://api.trysasha.ru/*'], ['https://tts.example.ru/*']],
    ['nothing that is not a web origin', [...PAGE_ORIGINS, 'file:///*'], [], []],
  ])('%s', (_n, granted, required, keep) => expect(narrowerGrants(granted, required)).toEqual(keep));
});
