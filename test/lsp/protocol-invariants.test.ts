import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fstab, manifest, provisioningScript, terraform } from '../../bench/generate.mjs';
import { LspClient, PULL_CLIENT_CAPABILITIES, type LspDiagnostic, type TextEditLike } from './support/lspClient';

/**
 * The LSP specification's invariants on every answer the server gives (issue 26: an Ansible mount
 * loop's outline had a selection range outside its range, and VS Code showed "No symbols found").
 * Every fixture, every example and the bench's generated inputs are opened in the real server, and
 * each answer is checked: ranges inside the document and ordered, a symbol's selection range inside
 * its range and its children inside it, folding lines inside the document, completion edits on the
 * cursor's line and around it, a hover's range around its position, and the edits of one code
 * action never overlapping.
 */
type Position = { line: number; character: number };
type Range = { start: Position; end: Position };
type DocumentSymbol = { name: string; range: Range; selectionRange: Range; children?: DocumentSymbol[] };
type FoldingRange = { startLine: number; endLine: number };
type CodeLens = { range: Range };
type InlayHint = { position: Position };
type Hover = { range?: Range } | null;
type CompletionItem = {
  label: string;
  textEdit?: TextEditLike | { insert: Range; replace: Range; newText: string };
  additionalTextEdits?: TextEditLike[];
};
type CodeAction = {
  title: string;
  edit?: {
    changes?: Record<string, TextEditLike[]>;
    documentChanges?: { textDocument: { uri: string }; edits: TextEditLike[] }[];
  };
};

const ROOT = join(__dirname, '..', '..');
/** Hover and completion are asked at this many places per document (diagnostics, symbols, line starts). */
const POSITIONS_PER_DOCUMENT = 12; // not a fact: a bound on the test's requests

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return entry === 'fixed' ? [] : filesUnder(path);
    return entry === 'expected.txt' || entry.endsWith('.golden.txt') ? [] : [path];
  });
}

/** Line lengths in UTF-16 code units, as LSP counts them. */
function lineLengths(text: string): number[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.length);
}

function compare(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

function inside(inner: Range, outer: Range): boolean {
  return compare(outer.start, inner.start) <= 0 && compare(inner.end, outer.end) <= 0;
}

class Checker {
  readonly problems: string[] = [];
  constructor(
    readonly name: string,
    readonly lines: number[],
  ) {}

  position(p: Position, what: string): void {
    const ok =
      Number.isInteger(p.line) &&
      Number.isInteger(p.character) &&
      p.line >= 0 &&
      p.character >= 0 &&
      p.line < this.lines.length &&
      p.character <= this.lines[p.line]!;
    if (!ok)
      this.problems.push(
        `${this.name}: ${what} at ${p.line}:${p.character} lies outside the document (${this.lines.length} lines)`,
      );
  }

  range(r: Range, what: string): void {
    this.position(r.start, `${what} start`);
    this.position(r.end, `${what} end`);
    if (compare(r.start, r.end) > 0)
      this.problems.push(`${this.name}: ${what} ends before it starts (${JSON.stringify(r)})`);
  }

  symbols(symbols: readonly DocumentSymbol[], parent?: DocumentSymbol): void {
    for (const s of symbols) {
      this.range(s.range, `symbol "${s.name}" range`);
      this.range(s.selectionRange, `symbol "${s.name}" selectionRange`);
      if (!inside(s.selectionRange, s.range))
        this.problems.push(
          `${this.name}: symbol "${s.name}": selectionRange ${JSON.stringify(s.selectionRange)} is not inside its range ${JSON.stringify(s.range)}`,
        );
      if (parent && !inside(s.range, parent.range))
        this.problems.push(`${this.name}: symbol "${s.name}" is not inside its parent "${parent.name}"`);
      if (s.children) this.symbols(s.children, s);
    }
  }

  edits(edits: readonly TextEditLike[], what: string): void {
    const sorted = [...edits].sort((a, b) => compare(a.range.start, b.range.start));
    for (let i = 0; i < sorted.length; i++) {
      this.range(sorted[i]!.range, what);
      const next = sorted[i + 1];
      if (next && compare(sorted[i]!.range.end, next.range.start) > 0)
        this.problems.push(
          `${this.name}: ${what}: edits overlap (${JSON.stringify(sorted[i]!.range)} and ${JSON.stringify(next.range)})`,
        );
    }
  }
}

interface Corpus {
  readonly name: string;
  readonly root: string;
  readonly files: readonly string[];
}

function generatedCorpus(): Corpus {
  const root = mkdtempSync(join(tmpdir(), 'anf-lint-protocol-'));
  const files: Record<string, string> = {
    'etc/fstab': fstab(300),
    'estate.anf.yaml': manifest(60, 6),
    'scripts/provision.sh': provisioningScript(800),
    'infra/main.tf': terraform(600),
  };
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
  }
  return { name: 'bench inputs', root, files: Object.keys(files).map((p) => join(root, p)) };
}

const corpora: Corpus[] = [
  { name: 'rule fixtures', root: join(ROOT, 'test', 'fixtures'), files: filesUnder(join(ROOT, 'test', 'fixtures')) },
  { name: 'examples', root: join(ROOT, 'examples'), files: filesUnder(join(ROOT, 'examples')) },
];
const generated = generatedCorpus();
corpora.push(generated);
afterAll(() => rmSync(generated.root, { recursive: true, force: true }));

async function checkDocument(client: LspClient, corpus: Corpus, path: string): Promise<string[]> {
  const text = readFileSync(path, 'utf8');
  if (text.includes('\0')) return [];
  const uri = pathToFileURL(path).href;
  const check = new Checker(`${corpus.name}/${relative(corpus.root, path)}`, lineLengths(text));
  client.open(uri, text);
  const textDocument = { uri };
  const report = await client.request<{ items?: LspDiagnostic[] }>('textDocument/diagnostic', { textDocument });
  const diagnostics = report.items ?? [];
  for (const d of diagnostics) {
    check.range(d.range, `diagnostic ${String(d.code)}`);
  }

  const symbols =
    (await client.request<DocumentSymbol[] | null>('textDocument/documentSymbol', { textDocument })) ?? [];
  check.symbols(symbols);

  for (const f of (await client.request<FoldingRange[] | null>('textDocument/foldingRange', { textDocument })) ?? []) {
    if (f.startLine < 0 || f.endLine < f.startLine || f.endLine >= check.lines.length)
      check.problems.push(`${check.name}: folding range ${f.startLine}-${f.endLine} is not inside the document`);
  }
  for (const lens of (await client.request<CodeLens[] | null>('textDocument/codeLens', { textDocument })) ?? [])
    check.range(lens.range, 'code lens');
  const lines = lineLengths(text);
  const whole: Range = {
    start: { line: 0, character: 0 },
    end: { line: lines.length - 1, character: lines[lines.length - 1]! },
  };
  for (const hint of (await client.request<InlayHint[] | null>('textDocument/inlayHint', {
    textDocument,
    range: whole,
  })) ?? [])
    check.position(hint.position, 'inlay hint');

  // Places a user hovers and types: where findings and symbols start, and the first lines.
  const positions: Position[] = [
    ...diagnostics.map((d) => d.range.start),
    ...symbols.map((s) => s.selectionRange.start),
    ...lines.slice(0, 4).map((_, line) => ({ line, character: lines[line]! })),
  ].slice(0, POSITIONS_PER_DOCUMENT);
  for (const position of positions) {
    const hover = await client.request<Hover>('textDocument/hover', { textDocument, position });
    if (hover?.range) {
      check.range(hover.range, 'hover range');
      if (compare(hover.range.start, position) > 0 || compare(position, hover.range.end) > 0)
        check.problems.push(
          `${check.name}: hover at ${position.line}:${position.character} has a range that does not hold it`,
        );
    }
    const completion = await client.request<{ items: CompletionItem[] } | CompletionItem[] | null>(
      'textDocument/completion',
      { textDocument, position },
    );
    const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
    for (const item of items) {
      const edit = item.textEdit;
      const ranges = edit ? ('range' in edit ? [edit.range] : [edit.insert, edit.replace]) : [];
      for (const r of ranges) {
        check.range(r, `completion "${item.label}"`);
        // LSP: a completion's edit range is on one line and holds the position the completion was asked at.
        if (
          r.start.line !== position.line ||
          r.end.line !== position.line ||
          r.start.character > position.character ||
          r.end.character < position.character
        ) {
          check.problems.push(
            `${check.name}: completion "${item.label}" at ${position.line}:${position.character} edits ${JSON.stringify(r)}`,
          );
        }
      }
      if (item.additionalTextEdits)
        check.edits(item.additionalTextEdits, `completion "${item.label}" additional edits`);
    }
  }

  for (const d of diagnostics) {
    const actions =
      (await client.request<CodeAction[] | null>('textDocument/codeAction', {
        textDocument,
        range: d.range,
        context: { diagnostics: [d] },
      })) ?? [];
    for (const action of actions) {
      for (const [target, edits] of Object.entries(action.edit?.changes ?? {}))
        if (target === uri) check.edits(edits, `code action "${action.title}"`);
      for (const change of action.edit?.documentChanges ?? [])
        if (change.textDocument.uri === uri) check.edits(change.edits, `code action "${action.title}"`);
    }
  }
  client.close(uri);
  return check.problems;
}

describe('every answer keeps the LSP specification invariants', () => {
  for (const corpus of corpora) {
    it(`${corpus.name}: ${corpus.files.length} documents`, async () => {
      expect(corpus.files.length).toBeGreaterThan(2);
      const { client } = await LspClient.startIndexed({
        rootUri: pathToFileURL(corpus.root).href,
        capabilities: PULL_CLIENT_CAPABILITIES,
      });
      try {
        const problems: string[] = [];
        for (const path of corpus.files) problems.push(...(await checkDocument(client, corpus, path)));
        expect(problems).toEqual([]);
        // A clean shutdown: the last didClose notifications are written before the server exits
        // (killing it with writes pending made an EPIPE that failed the run).
        await client.shutdown();
      } finally {
        client.dispose();
      }
    }, 600_000);
  }
});
