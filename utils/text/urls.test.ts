import { describe, expect, it } from 'vitest';
import { readUrls, siteName } from './urls';

describe('readUrls', () => {
  it.each([
    ['a URL becomes its domain', 'См. https://www.example.com/a/b?c=1 для деталей.', 'domain', 'См. example.com для деталей.'],
    ['closing punctuation stays out of it', 'Source: https://lwn.net/Articles/123/.', 'domain', 'Source: lwn.net.'],
    ['www. without a scheme', 'Visit www.kernel.org/doc today', 'domain', 'Visit kernel.org today'],
    ['left out', 'Ссылка: https://example.com/x, и всё.', 'out', 'Ссылка: , и всё.'],
    ['read as written', 'https://example.com/x', 'read', 'https://example.com/x'],
    ['a domain in prose is not a URL', 'Сайт example.com работает.', 'domain', 'Сайт example.com работает.'],
    ['a Cyrillic domain as written, not as punycode', 'Запись на https://www.госуслуги.рф/help/faq?from=1 до пятницы.', 'domain', 'Запись на госуслуги.рф до пятницы.'],
    ['a wildcard host as written, not percent-encoded', 'URL canonization (www.*.com) now uses https', 'domain', 'URL canonization (*.com) now uses https'],
    ['no user, password or port', 'Log in at https://user:secret@Example.COM:8443/login now', 'domain', 'Log in at example.com now'],
    ['an IPv6 host keeps its brackets', 'Open http://[::1]:3000/ here', 'domain', 'Open [::1] here'],
    ['a query right after the host', 'See https://ya.ru?q=1 first', 'domain', 'See ya.ru first'],
    ['an address with no letter or digit is left out', 'Broken http://--/x link', 'domain', 'Broken  link'],
  ] as const)('%s', (_name, text, how, expected) => {
    expect(readUrls(text, how)).toBe(expected);
  });
});

describe('siteName', () => {
  it.each([
    ['punycode labels in Unicode', 'xn--c1aapkosapc.xn--p1ai', 'госуслуги.рф'],
    ['a mixed host', 'www.xn--e1afmkfd.xn--80asehdb', 'www.пример.онлайн'],
    ['an ASCII host as it is', 'www.theguardian.com', 'www.theguardian.com'],
    ['a label that is not valid punycode stays', 'xn--zzzzzzzz.com', 'xn--zzzzzzzz.com'],
    ['no host (a file)', '', ''],
  ] as const)('%s', (_name, host, expected) => {
    expect(siteName(host)).toBe(expected);
  });
});
