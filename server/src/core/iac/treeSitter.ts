import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

/**
 * The tree-sitter runtime (web-tree-sitter) and the Terraform (HCL) and Bicep grammars, compiled
 * to WebAssembly and shipped in the npm packages `@tree-sitter-grammars/tree-sitter-hcl` and
 * `tree-sitter-bicep`. WebAssembly is instantiated asynchronously, so the CLI and the language
 * server call `initIacParsers` once, before they parse; the core then parses synchronously. The
 * core never reads files: the adapters hand it the .wasm bytes (server/src/iacWasm.ts).
 */
export type IacGrammar = 'terraform' | 'bicep';

export interface IacWasm {
  /** web-tree-sitter.wasm, the runtime. */
  readonly runtime: Uint8Array;
  readonly terraform: Uint8Array;
  readonly bicep: Uint8Array;
}

let languages: Partial<Record<IacGrammar, Language>> | undefined;
let loading: Promise<void> | undefined;
const parsers: Partial<Record<IacGrammar, Parser>> = {};

export function initIacParsers(wasm: IacWasm | (() => IacWasm)): Promise<void> {
  loading ??= (async () => {
    const bytes = typeof wasm === 'function' ? wasm() : wasm;
    await Parser.init({ wasmBinary: bytes.runtime } as never);
    const [terraform, bicep] = await Promise.all([Language.load(bytes.terraform), Language.load(bytes.bicep)]);
    languages = { terraform, bicep };
  })();
  return loading;
}

export function iacParsersReady(): boolean {
  return languages !== undefined;
}

/** Parses `text` with a grammar; undefined when the parsers were not loaded. */
export function parseTree(grammar: IacGrammar, text: string): Tree | undefined {
  const language = languages?.[grammar];
  if (!language) return undefined;
  let parser = parsers[grammar];
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers[grammar] = parser;
  }
  return parser.parse(text) ?? undefined;
}

export type { Node, Tree };
