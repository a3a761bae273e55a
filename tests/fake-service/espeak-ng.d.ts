// The espeak-ng npm package (an Emscripten build) ships without types; this covers what audio.ts uses.
declare module 'espeak-ng' {
  export interface ESpeakNgFS {
    writeFile(path: string, data: string | Uint8Array): void;
    readFile(path: string): Uint8Array;
  }

  export interface ESpeakNgModule {
    FS: ESpeakNgFS;
  }

  export interface ESpeakNgOptions {
    /** Command-line arguments of the espeak-ng program; it runs once, on instantiation. */
    arguments?: string[];
    preRun?: Array<(module: ESpeakNgModule) => void>;
    print?: (line: string) => void;
    printErr?: (line: string) => void;
    instantiateWasm?: (
      imports: WebAssembly.Imports,
      done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
    ) => object;
  }

  export default function ESpeakNg(options?: ESpeakNgOptions): Promise<ESpeakNgModule>;
}
