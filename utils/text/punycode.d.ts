/** punycode.js's ES module (its `main` is CommonJS; a bare `punycode` would be Node's deprecated built-in). */
declare module 'punycode/punycode.es6.js' {
  /** A domain's `xn--` labels in Unicode; other labels and an e-mail's local part are left as they are. */
  export function toUnicode(domain: string): string;
}
