/**
 * Where "Recommend sizing" writes the pool it recommends: into the `pools:` list of the account the
 * cursor is in (the nearest account above it, or the first), with that list's own indentation; a
 * `pools:` key or a whole account when there is none. The edit is checked before it is offered: the
 * edited text is parsed again and must hold the new pool, or there is no edit (and a reason).
 *
 * One inserter per file format, chosen by file kind (INSERTERS). Terraform and Bicep readers add
 * theirs here: an inserter gets the text, the cursor and the pool as plain data and returns the
 * whole edited text, or why it cannot.
 */
import { MAX_NESTING_DEPTH, nestingPastBound } from '../text/nesting';
import {
  applyEdits,
  modify,
  parse,
  parseTree,
  findNodeAtLocation,
  type FormattingOptions,
  type Node as JsonNode,
  type ParseError,
} from 'jsonc-parser';
import { isMap, isScalar, isSeq, parseDocument, stringify, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { changedRegion } from '../text/changedRegion';
import type { Span } from '../text/sourceText';
import type { FileKind } from '../fileKind';

/** A pool and its volumes as manifest data (the keys of the manifest schema, values with units). */
export interface PoolDraft {
  readonly name: string;
  readonly serviceLevel: string;
  readonly size: string;
  readonly qos?: string;
  readonly throughput?: string;
  readonly volumes: readonly VolumeDraft[];
}

export interface VolumeDraft {
  readonly name: string;
  readonly quota: string;
  readonly largeVolume?: boolean;
  readonly throughput?: string;
  readonly workload?: string;
  readonly requirements?: Readonly<Record<string, string>>;
}

export interface SizingEdit {
  /** The text replaced (an insertion when empty). */
  readonly span: Span;
  readonly newText: string;
  /** Where the pool went, for the user: `pools of account eda-prod`. */
  readonly where: string;
}

export type InsertionResult = SizingEdit | { readonly error: string };

/** Text + cursor + pool -> the whole edited text, the account it went to, or why not. */
type Inserter = (
  text: string,
  offset: number,
  pool: PoolDraft,
) => { text: string; account: string; created: boolean } | { error: string };

/** The default account name when a file has none yet. */
export const NEW_ACCOUNT_NAME = 'account1';

const INSERTERS: Partial<Record<FileKind, Inserter>> = {
  'manifest-yaml': insertYaml,
  'manifest-json': insertJson,
};

/** Whether "Recommend sizing" can write into files of this kind. */
export function canInsertSizing(kind: FileKind): boolean {
  return INSERTERS[kind] !== undefined;
}

/**
 * The edit that adds `pool` to the file at the cursor (`offset`), or why there is none. The pool's
 * and its volumes' names are made unique in the account first.
 */
export function sizingInsertion(kind: FileKind, text: string, offset: number, pool: PoolDraft): InsertionResult {
  const inserter = INSERTERS[kind];
  if (!inserter) return { error: `anf-lint cannot write a pool into a ${kind} file.` };
  if (nestingPastBound(text))
    return { error: `the manifest nests deeper than ${MAX_NESTING_DEPTH} levels: flatten it first, then ask again` };
  const result = inserter(text, Math.max(0, Math.min(offset, text.length)), pool);
  if ('error' in result) return result;
  const format = kind === 'manifest-json' ? 'json' : 'yaml';
  const check = verify(result.text, format, result.account, pool.name);
  if (check) return { error: `anf-lint did not insert the pool: ${check} (please report this).` };
  const { span, newText } = singleEdit(text, result.text);
  return { span, newText, where: `${result.created ? 'a new account' : 'the pools of account'} ${result.account}` };
}

/**
 * The edited text parses, without syntax errors or duplicate keys, and the account holds the pool.
 * The syntax check of the manifest parser (ANF100/ANF101) without its schema pass, which a check of
 * one inserted pool does not need.
 */
function verify(text: string, format: 'yaml' | 'json', account: string, pool: string): string | undefined {
  let data: unknown;
  if (format === 'yaml') {
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: false, logLevel: 'silent' });
    if (doc.errors.length > 0) return `the result would not parse (${doc.errors[0]!.message})`;
    data = doc.toJS({ maxAliasCount: -1 });
  } else {
    const errors: ParseError[] = [];
    data = parse(text, errors, { allowTrailingComma: false, disallowComments: false });
    if (errors.length > 0) return `the result would not parse (JSON error at offset ${errors[0]!.offset})`;
  }
  const accounts = (data as { accounts?: unknown } | null)?.accounts;
  const found =
    Array.isArray(accounts) &&
    accounts.some(
      (a: { name?: unknown; pools?: unknown }) =>
        a?.name === account && Array.isArray(a.pools) && a.pools.some((p: { name?: unknown }) => p?.name === pool),
    );
  return found ? undefined : `the pool ${pool} is not in account ${account} afterwards`;
}

/** The one replacement that turns `before` into `after`: the text between their common prefix and suffix. */
function singleEdit(before: string, after: string): { span: Span; newText: string } {
  const { start, oldEnd, newEnd } = changedRegion(before, after);
  return { span: { start, end: oldEnd }, newText: after.slice(start, newEnd) };
}

/** `name`, or `name-2`, `name-3`... when taken. */
function unique(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let n = 2; ; n++) if (!taken.has(`${name}-${n}`)) return `${name}-${n}`;
}

function withUniqueNames(pool: PoolDraft, pools: readonly string[], volumes: readonly string[]): PoolDraft {
  const takenVolumes = new Set(volumes);
  return {
    ...pool,
    name: unique(pool.name, new Set(pools)),
    volumes: pool.volumes.map((v) => {
      const name = unique(v.name, takenVolumes);
      takenVolumes.add(name);
      return { ...v, name };
    }),
  };
}

/** Plain data in the manifest's key order. */
function poolData(pool: PoolDraft): Record<string, unknown> {
  return JSON.parse(JSON.stringify(pool)) as Record<string, unknown>;
}

/** Index of the item the cursor is in, else the last one starting above it, else the first. */
function itemAt(starts: readonly { start: number; end: number }[], offset: number): number {
  const inside = starts.findIndex((r) => offset >= r.start && offset <= r.end);
  if (inside >= 0) return inside;
  let above = -1;
  starts.forEach((r, i) => {
    if (r.start <= offset) above = i;
  });
  return Math.max(0, above);
}

// ---- YAML ------------------------------------------------------------------------------------

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function columnOf(text: string, offset: number): number {
  return offset - lineStartOf(text, offset);
}

/** The offset just after the line that holds `offset` (after its newline), or the text's end. */
function afterLine(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

/** `lines` (no trailing newline) indented by `column`, inserted after the line of `offset`. */
function insertLines(text: string, offset: number, column: number, block: string): string {
  const at = afterLine(text, offset);
  const pad = ' '.repeat(column);
  const body = block
    .replace(/\n$/, '')
    .split('\n')
    .map((line) => (line ? pad + line : line))
    .join('\n');
  const lead = at === text.length && text.length > 0 && !text.endsWith('\n') ? '\n' : '';
  return `${text.slice(0, at)}${lead}${body}\n${text.slice(at)}`;
}

const yamlBlock = (value: unknown): string => stringify(value, { lineWidth: 0 });

function keyName(pair: Pair): string | undefined {
  return isScalar(pair.key) ? String(pair.key.value) : undefined;
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((p) => keyName(p) === key);
}

/**
 * The last character of a node's text that ends at `end`: yaml's ranges of block collections run
 * past their last line's newline (and blank lines), and the pool goes right after that line.
 */
function lastChar(text: string, end: number): number {
  let i = end;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  return Math.max(0, i - 1);
}

/** The last character of a pair's text: its value's, or its key's when it has none. */
function pairEnd(text: string, pair: Pair): number {
  const node = (pair.value ?? pair.key) as { range?: [number, number, number] } | null;
  return lastChar(text, node?.range?.[1] ?? 0);
}

function keyStart(pair: Pair): number {
  return (pair.key as { range?: [number, number, number] }).range?.[0] ?? 0;
}

function isEmptyValue(pair: Pair): boolean {
  return pair.value === null || (isScalar(pair.value) && (pair.value.value === null || pair.value.value === ''));
}

function insertYaml(
  text: string,
  offset: number,
  draft: PoolDraft,
): { text: string; account: string; created: boolean } | { error: string } {
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: false, logLevel: 'silent' });
  if (doc.errors.length > 0)
    return {
      error: `the manifest has YAML errors (line ${lineOf(text, doc.errors[0]!.pos[0])}): fix them first, then ask again`,
    };
  const root = doc.contents;
  const newAccount = (pool: PoolDraft) => ({ name: NEW_ACCOUNT_NAME, pools: [poolData(pool)] });
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    return {
      text: insertLines(text, text.length, 0, yamlBlock({ accounts: [newAccount(draft)] })),
      account: NEW_ACCOUNT_NAME,
      created: true,
    };
  }
  if (!isMap(root)) return { error: 'the manifest is not a mapping of keys (region, accounts, ...)' };
  const accountsPair = pairOf(root, 'accounts');
  if (!accountsPair) {
    const last = root.items[root.items.length - 1];
    const column = root.items[0] ? columnOf(text, keyStart(root.items[0])) : 0;
    return {
      text: insertLines(
        text,
        last ? pairEnd(text, last) : text.length,
        column,
        yamlBlock({ accounts: [newAccount(draft)] }),
      ),
      account: NEW_ACCOUNT_NAME,
      created: true,
    };
  }
  if (isEmptyValue(accountsPair)) {
    const column = columnOf(text, keyStart(accountsPair)) + 2;
    return {
      text: insertLines(text, keyStart(accountsPair), column, yamlBlock([newAccount(draft)])),
      account: NEW_ACCOUNT_NAME,
      created: true,
    };
  }
  const accounts = accountsPair.value;
  if (!isSeq(accounts) || accounts.flow)
    return { error: '`accounts:` is not a block list (`- name: ...` items): add the pool by hand' };
  const items = accounts.items.filter((item): item is YAMLMap => isMap(item) && !item.flow);
  if (items.length !== accounts.items.length || items.length === 0) {
    if (accounts.items.length === 0) return { error: '`accounts:` has no items' };
    return { error: 'an item of `accounts:` is not a block mapping: add the pool by hand' };
  }
  const ranges = items.map((item) => ({ start: item.range?.[0] ?? 0, end: item.range?.[1] ?? 0 }));
  const account = items[itemAt(ranges, offset)]!;
  const accountName = pairOf(account, 'name');
  const name = accountName && isScalar(accountName.value) ? String(accountName.value.value) : undefined;
  if (name === undefined) return { error: 'the account at the cursor has no `name:`' };
  const poolsPair = pairOf(account, 'pools');
  const existingPools = poolsPair && isSeq(poolsPair.value) ? (poolsPair.value as YAMLSeq).items.filter(isMap) : [];
  const poolNames = existingPools
    .map((p) => pairOf(p, 'name'))
    .map((p) => (p && isScalar(p.value) ? String(p.value.value) : ''));
  const volumeNames = existingPools.flatMap((p) => {
    const volumes = pairOf(p, 'volumes')?.value;
    return isSeq(volumes)
      ? volumes.items
          .filter(isMap)
          .map((v) => pairOf(v, 'name'))
          .map((v) => (v && isScalar(v.value) ? String(v.value.value) : ''))
      : [];
  });
  const pool = withUniqueNames(draft, poolNames, volumeNames);
  const keyColumn = columnOf(text, keyStart(account.items[0]!));
  if (!poolsPair) {
    const last = account.items[account.items.length - 1]!;
    return {
      text: insertLines(text, pairEnd(text, last), keyColumn, yamlBlock({ pools: [poolData(pool)] })),
      account: name,
      created: false,
    };
  }
  if (isEmptyValue(poolsPair)) {
    return {
      text: insertLines(
        text,
        keyStart(poolsPair),
        columnOf(text, keyStart(poolsPair)) + 2,
        yamlBlock([poolData(pool)]),
      ),
      account: name,
      created: false,
    };
  }
  const pools = poolsPair.value;
  if (!isSeq(pools) || pools.flow) {
    if (isSeq(pools) && pools.items.length === 0) {
      // `pools: []`: replace the empty flow list with a block list.
      const [start, end] = [pools.range?.[0] ?? 0, pools.range?.[1] ?? 0];
      const column = columnOf(text, keyStart(poolsPair)) + 2;
      const block = yamlBlock([poolData(pool)])
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => ' '.repeat(column) + line)
        .join('\n');
      let keep = start;
      while (keep > 0 && (text[keep - 1] === ' ' || text[keep - 1] === '\t')) keep--;
      return { text: `${text.slice(0, keep)}\n${block}${text.slice(end)}`, account: name, created: false };
    }
    return { error: '`pools:` is not a block list (`- name: ...` items): add the pool by hand' };
  }
  const lastPool = pools.items[pools.items.length - 1] as { range?: [number, number, number] } | undefined;
  const firstPool = pools.items[0] as { range?: [number, number, number] } | undefined;
  // The dash of the first item: its column is the list's indentation.
  const dash = firstPool?.range ? text.lastIndexOf('-', firstPool.range[0]) : -1;
  const column = dash >= 0 ? columnOf(text, dash) : keyColumn;
  return {
    text: insertLines(
      text,
      lastPool?.range ? lastChar(text, lastPool.range[1]) : pairEnd(text, poolsPair),
      column,
      yamlBlock([poolData(pool)]),
    ),
    account: name,
    created: false,
  };
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

// ---- JSON ------------------------------------------------------------------------------------

/** The file's own indentation: the first indented line's leading whitespace. */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 1, eol: '\n' }
    : { insertSpaces: true, tabSize: indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

function jsonString(node: JsonNode | undefined): string | undefined {
  return node?.type === 'string' ? String(node.value) : undefined;
}

function insertJson(
  text: string,
  offset: number,
  draft: PoolDraft,
): { text: string; account: string; created: boolean } | { error: string } {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: false });
  const formattingOptions = formattingOf(text);
  const edit = (path: (string | number)[], value: unknown, isArrayInsertion = false) =>
    applyEdits(text, modify(text, path, value, { formattingOptions, isArrayInsertion }));
  if (text.trim() === '') {
    const content = JSON.stringify({ accounts: [{ name: NEW_ACCOUNT_NAME, pools: [poolData(draft)] }] }, null, 2);
    return { text: `${content}\n`, account: NEW_ACCOUNT_NAME, created: true };
  }
  if (errors.length > 0 || !root)
    return {
      error: `the manifest has JSON errors (line ${lineOf(text, errors[0]?.offset ?? 0)}): fix them first, then ask again`,
    };
  if (root.type !== 'object') return { error: 'the manifest is not a JSON object' };
  const accounts = findNodeAtLocation(root, ['accounts']);
  if (!accounts || accounts.type === 'null') {
    return {
      text: edit(['accounts'], [{ name: NEW_ACCOUNT_NAME, pools: [poolData(draft)] }]),
      account: NEW_ACCOUNT_NAME,
      created: true,
    };
  }
  if (accounts.type !== 'array') return { error: '`accounts` is not a list' };
  const items = accounts.children ?? [];
  if (items.length === 0)
    return {
      text: edit(['accounts', 0], { name: NEW_ACCOUNT_NAME, pools: [poolData(draft)] }, true),
      account: NEW_ACCOUNT_NAME,
      created: true,
    };
  const index = itemAt(
    items.map((n) => ({ start: n.offset, end: n.offset + n.length })),
    offset,
  );
  const account = items[index]!;
  if (account.type !== 'object') return { error: 'the account at the cursor is not an object' };
  const name = jsonString(findNodeAtLocation(account, ['name']));
  if (name === undefined) return { error: 'the account at the cursor has no "name"' };
  const pools = findNodeAtLocation(account, ['pools']);
  const poolNodes = pools?.type === 'array' ? (pools.children ?? []) : [];
  const poolNames = poolNodes.map((p) => jsonString(findNodeAtLocation(p, ['name'])) ?? '');
  const volumeNames = poolNodes.flatMap((p) => {
    const volumes = findNodeAtLocation(p, ['volumes']);
    return volumes?.type === 'array'
      ? (volumes.children ?? []).map((v) => jsonString(findNodeAtLocation(v, ['name'])) ?? '')
      : [];
  });
  const pool = withUniqueNames(draft, poolNames, volumeNames);
  if (!pools || pools.type === 'null')
    return { text: edit(['accounts', index, 'pools'], [poolData(pool)]), account: name, created: false };
  if (pools.type !== 'array') return { error: '`pools` of the account is not a list' };
  return {
    text: edit(['accounts', index, 'pools', poolNodes.length], poolData(pool), true),
    account: name,
    created: false,
  };
}
