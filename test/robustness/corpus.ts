/**
 * Inputs for the robustness tests: every real-looking file the rule fixtures and examples hold
 * (their paths decide the file kind), and fast-check arbitraries that mutate them with the
 * characters parsers trip on: separators, quotes, YAML indicators, CR, tabs, NUL, U+FFFD, a BOM,
 * lone surrogates, template markers.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { detectFileKind, type FileKind } from '../../server/src/core';

const ROOT = join(__dirname, '..', '..');

export interface CorpusFile {
  /** Path relative to its fixture folder (or the repository for examples/), kind-deciding. */
  readonly path: string;
  readonly uri: string;
  readonly kind: FileKind;
  readonly text: string;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function load(): CorpusFile[] {
  const files: CorpusFile[] = [];
  const fixtures = join(ROOT, 'test', 'fixtures', 'rules');
  for (const full of walk(fixtures)) {
    const rel = relative(fixtures, full).split('\\').join('/');
    const [, ...rest] = rel.split('/');
    const path = rest.join('/');
    if (path === 'expected.txt' || path.startsWith('fixed/')) continue;
    files.push({ path, uri: `file:///corpus/${rel}`, kind: detectFileKind(path), text: readFileSync(full, 'utf8') });
  }
  for (const full of walk(join(ROOT, 'examples'))) {
    const rel = relative(ROOT, full).split('\\').join('/');
    files.push({
      path: rel,
      uri: `file:///corpus/${rel}`,
      kind: detectFileKind(rel),
      text: readFileSync(full, 'utf8'),
    });
  }
  return files
    .map((f) => (f.kind === 'unknown' ? { ...f, kind: detectFileKind(f.path, f.text) } : f))
    .filter((f) => f.kind !== 'unknown')
    .sort((a, b) => (a.uri < b.uri ? -1 : 1));
}

export const CORPUS: readonly CorpusFile[] = load();

export function corpusOfKind(...kinds: FileKind[]): CorpusFile[] {
  return CORPUS.filter((f) => kinds.includes(f.kind));
}

/** Tokens that sit at the edges of every grammar we parse. */
const TOKENS = [
  ',',
  '=',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '#',
  ';',
  ':',
  '-',
  '- ',
  '"',
  "'",
  '\\',
  '\\\n',
  '\0',
  '\uFFFD',
  '\uFEFF',
  '\uD800',
  '😀',
  '&a ',
  '*a',
  '<<: *a',
  '{',
  '}',
  '[',
  ']',
  '|',
  '>',
  '---',
  '...',
  '${HOST}',
  '{{ x }}',
  '$(',
  '`',
  '<<EOF\n',
  'nfs',
  'nfs4',
  'vers=4.1',
  'nconnect=',
  'rsize=',
  '=1048576',
  'hard',
  'soft',
  '10.0.0.4:/vol',
  '/mnt/x',
  ' 0 0',
  'options ',
  'sunrpc',
  'net.core.rmem_max',
  ' = ',
  '4 TiB',
  '0 MiB/s',
  '-1',
  '1e309',
  'NaN',
  '99999999999999999999',
  'accounts:',
  'pools:',
  'volumes:',
  'name:',
  'quota:',
  '```',
  '```sh\n',
  'mount -t nfs -o ',
  'sysctl -w ',
  'echo 1 > /proc/sys/',
  '[Mount]\n',
  'Options=',
  '# anf-lint disable-next-line ',
  '# anf-lint disable-file ',
  'ANF201',
  '# anf: workload=',
  'eda-tools',
  ' -- why',
];

export const token = fc.constantFrom(...TOKENS);

/** A short string of tokens and arbitrary characters (full Unicode, including lone surrogates). */
export const noise = fc
  .array(
    fc.oneof({ weight: 3, arbitrary: token }, { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) }),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

type Mutation = (text: string) => string;

const at = (text: string, fraction: number) => Math.floor(fraction * (text.length + 1));
const fraction = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fraction, noise).map(
    ([f, s]): Mutation =>
      (t) =>
        t.slice(0, at(t, f)) + s + t.slice(at(t, f)),
  ),
  fc.tuple(fraction, fc.integer({ min: 1, max: 40 })).map(
    ([f, n]): Mutation =>
      (t) =>
        t.slice(0, at(t, f)) + t.slice(at(t, f) + n),
  ),
  fc.tuple(fraction, fraction).map(
    ([a, b]): Mutation =>
      (t) => {
        const lines = t.split('\n');
        const i = Math.floor(a * lines.length);
        const j = Math.floor(b * lines.length);
        const copy = [...lines];
        copy.splice(j, 0, lines[i] ?? '');
        return copy.join('\n');
      },
  ),
  fc.constant<Mutation>((t) => t.replace(/\n/g, '\r\n')),
  fc.constant<Mutation>((t) => `\uFEFF${t}`),
  fc.constant<Mutation>((t) => t.replace(/^ {2}/gm, '\t')),
  fc.tuple(fraction).map(
    ([f]): Mutation =>
      (t) =>
        t.slice(0, at(t, f)),
  ),
);

/** A corpus file of one of the kinds, mutated a few times. */
export function mutatedFile(files: readonly CorpusFile[]): fc.Arbitrary<CorpusFile> {
  return fc.tuple(fc.constantFrom(...files), fc.array(mutation, { maxLength: 5 })).map(([file, mutations]) => ({
    ...file,
    text: mutations.reduce((text, m) => m(text), file.text),
  }));
}

/** Every `{start, end}` span found anywhere in a value (parsers' models, findings, fixes). */
export function spansIn(value: unknown, seen = new Set<unknown>()): { start: number; end: number; path: string }[] {
  const found: { start: number; end: number; path: string }[] = [];
  const visit = (node: unknown, path: string) => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const record = node as Record<string, unknown>;
    if (typeof record.start === 'number' && typeof record.end === 'number' && Object.keys(record).length <= 4) {
      found.push({ start: record.start, end: record.end, path });
    }
    if (node instanceof Map) for (const [k, v] of node) visit(v, `${path}.${String(k)}`);
    else for (const [key, child] of Object.entries(record)) if (key !== 'source') visit(child, `${path}.${key}`);
  };
  visit(value, '$');
  return found;
}

/** Spans that are not inside [0, length] or run backwards. */
export function badSpans(value: unknown, length: number): string[] {
  return spansIn(value)
    .filter(
      (s) =>
        !(Number.isInteger(s.start) && Number.isInteger(s.end) && 0 <= s.start && s.start <= s.end && s.end <= length),
    )
    .map((s) => `${s.path} = [${s.start}, ${s.end}) of ${length}`);
}

/** A stable string for comparing two results of the same input. */
export function fingerprint(value: unknown): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(value, (key, v: unknown) => {
    if (key === 'source') return undefined;
    if (v instanceof Map) return [...v.entries()];
    if (v instanceof Set) return [...v.values()];
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    if (v && typeof v === 'object') {
      if (seen.has(v)) return '[seen]';
      seen.add(v);
    }
    return v;
  });
}

/** fast-check runs per property: enough to find the usual edge cases, small enough for CI. */
export const RUNS = Number(process.env.ROBUSTNESS_RUNS ?? 60);
