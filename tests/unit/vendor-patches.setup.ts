/**
 * The unit tests run Readability as the build ships it (scripts/vendor-patches.ts): Node loads dependencies
 * itself, past Vite's plugins, so the patched source is put in Node's module cache before anything requires
 * it; and the DOMParser the patch parses with is linkedom's, as the tests' pages are.
 */
import { readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { DOMParser } from 'linkedom';
import { patched } from '../../scripts/vendor-patches';

const require = createRequire(import.meta.url);
const file = require.resolve('@mozilla/readability/Readability.js');
if (!require.cache[file]) {
  type Internal = Module & { _compile(code: string, filename: string): void };
  const mod = new Module(file) as Internal;
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  mod._compile(patched(file, readFileSync(file, 'utf8')), file);
  mod.loaded = true;
  require.cache[file] = mod;
}
(globalThis as { DOMParser?: unknown }).DOMParser ??= DOMParser;
