import { closest, distance } from 'fastest-levenshtein';
import * as YAML from 'yaml';
import { parseDocument, Scalar, type Document, type Node, type Pair, type YAMLSeq } from 'yaml';
import type * as z from '../zod';
import { metaOf as registeredMeta } from '../zod';
import { isWorkloadKind, SERVICE_LEVELS, type ServiceLevel, type WorkloadKind } from '../facts';
import { strictJsonDocument } from './jsonDocument';
import type { SourceText, Span } from '../text/sourceText';
import { stackExhaustion, TOO_DEEP_MESSAGE, yamlReadableText } from '../text/yamlText';
import { nestingPastBound, tooDeepMessage } from '../text/nesting';
import { parseCount, parseDuration, parseRate, parseSize, type Parsed } from '../units/units';
import { type ParseProblem, unsafeFix } from '../diagnostics';
import {
  accountSchema,
  manifestSchema,
  poolSchema,
  requirementsSchema,
  volumeSchema,
  NETWORK_FEATURES,
  PROTOCOLS,
  QOS_TYPES,
  SECURITY_FLAVORS,
  type Located,
  type ManifestAccount,
  type ManifestCoolAccess,
  type ManifestDocument,
  type ManifestPool,
  type ManifestPriceOverrides,
  type ManifestRequirements,
  type ManifestVolume,
  type NetworkFeatures,
  type Protocol,
  type SecurityFlavor,
} from './model';
import { summarizeVolumes } from './summary';
import type { VolumeSummary } from './volumeSummary';
import type { Mutable } from '../mutable';

export interface ManifestParseResult {
  readonly manifest?: ManifestDocument;
  readonly volumes: readonly VolumeSummary[];
  readonly problems: readonly ParseProblem[];
}

/** Parse problem codes, each a rule with its own page (manifest/rules/ANF100-ANF104). */
export const PARSE_CODES = {
  syntax: 'ANF100',
  duplicateKey: 'ANF101',
  unknownKey: 'ANF102',
  invalidValue: 'ANF103',
  missingKey: 'ANF104',
} as const;

/**
 * Aliases a document may expand before we call it an alias bomb ("billion laughs"). yaml's own
 * default; real manifests use a handful.
 */
const MAX_ALIAS_COUNT = 100;

/** Stands for a key that is a list or mapping in the data read from a document (it starts with U+0000, which no manifest writes in a key). */
const COLLECTION_KEY_PREFIX = '\u0000collection-key-';

/** Keys starting with `x-` are free for anchors and notes (as in Compose files); anf-lint ignores them. */
export const EXTENSION_PREFIX = 'x-';

type Path = readonly (string | number)[];

// Taken once per document: a bundled import of a CommonJS module reads each name through a getter
// on every call, and a whole parse asks these for every node. Taken again after each parse, not at
// module load: the CLI starts yaml on first use (scripts/esbuildPlugins.mjs, lazyPackages), and
// before that these names are stand-ins that forward every call.
let isAlias: typeof YAML.isAlias = YAML.isAlias;
let isMap: typeof YAML.isMap = YAML.isMap;
let isPair: typeof YAML.isPair = YAML.isPair;
let isScalar: typeof YAML.isScalar = YAML.isScalar;
let isSeq: typeof YAML.isSeq = YAML.isSeq;

function takeNodeTests(): void {
  isAlias = YAML.isAlias;
  isMap = YAML.isMap;
  isPair = YAML.isPair;
  isScalar = YAML.isScalar;
  isSeq = YAML.isSeq;
}

/** Parses with yaml and takes its node tests again (see above). */
function parseYaml(text: string): Document.Parsed {
  const doc = parseDocument(text, YAML_OPTIONS);
  takeNodeTests();
  return doc;
}

/** Where locate found a path's value: its node, the key in front of it, and whether an alias or merge key led there. */
interface At {
  readonly node: Node | null;
  readonly key?: Node;
  readonly viaAlias: boolean;
  readonly pair?: Pair;
}

/** An item the model builder reads the fields of: its path and where it is. */
interface Owner {
  readonly path: Path;
  readonly at: At | undefined;
}

// logLevel 'error': yaml would otherwise print warnings (e.g. collection keys) to the process's stderr.
const YAML_OPTIONS = { uniqueKeys: false, merge: true, prettyErrors: false, strict: false, logLevel: 'error' } as const;

/**
 * Where a parser reads one volume's list item on its own (incremental.ts): the item's path in the
 * whole manifest, and the offset of the snippet's first character in the whole text.
 */
interface VolumeScope {
  readonly path: Path;
  readonly offset: number;
}

/** Parses a sizing manifest (YAML or JSON). Never throws: problems come back as findings; a reader bug as ANF003 (parser-failure). */
export function parseManifest(source: SourceText, uri: string, format: 'yaml' | 'json'): ManifestParseResult {
  try {
    return new ManifestParser(source, uri, format).run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      volumes: [],
      problems: [
        {
          code: 'ANF003',
          span: { start: 0, end: 0 },
          message: `anf-lint's manifest reader failed on this file, so it was not checked for manifest problems: ${message}`,
        },
      ],
    };
  }
}

/**
 * Reads one volume's list item on its own, as the volume at `path` of the whole manifest whose
 * text `source` holds; `snippet` is the item's lines, starting at `offset`. Undefined when the
 * snippet is not exactly one well-formed item (see incremental.ts).
 */
export function parseVolumeItem(
  source: SourceText,
  uri: string,
  path: Path,
  offset: number,
  snippet: string,
): { volume: ManifestVolume; problems: ParseProblem[]; syntaxErrors: boolean } | undefined {
  const read = parseManifestItem(source, uri, 'volume', path, offset, snippet);
  return read && { volume: read.item, problems: read.problems, syntaxErrors: read.syntaxErrors };
}

/** The levels of a manifest whose list items can be read on their own (incremental.ts). */
export type ManifestItemLevel = keyof ItemAt;

/** The model item each level's list item is read into. */
interface ItemAt {
  readonly volume: ManifestVolume;
  readonly pool: ManifestPool;
  readonly account: ManifestAccount;
}

/**
 * What follows a list item in the whole document: a sibling item ('sibling'; read with one after
 * it), nothing but white space (the item is the document's last content: 'end', and the snippet
 * runs to the end of the text), or anything else after its list's last item ('more').
 */
export type ItemAfter = 'sibling' | 'end' | 'more';

export interface ManifestItemRead<T> {
  readonly item: T;
  readonly problems: ParseProblem[];
  readonly syntaxErrors: boolean;
}

/**
 * Reads one volume's, pool's or account's list item on its own, as the item at `path` of the whole
 * manifest (as parseVolumeItem does for a volume). `after`: what follows the item in the whole
 * document (ItemAfter). Undefined when the snippet is not exactly one well-formed item, or when it
 * is its list's last, more follows, and it has syntax errors (the caller refuses those).
 */
export function parseManifestItem<L extends ManifestItemLevel>(
  source: SourceText,
  uri: string,
  level: L,
  path: Path,
  offset: number,
  snippet: string,
  after: ItemAfter = 'more',
): ManifestItemRead<ItemAt[L]> | undefined {
  try {
    const read = new ManifestParser(source, uri, 'yaml', { path, offset }).runItem(level, snippet, after);
    return read as ManifestItemRead<ItemAt[L]> | undefined;
  } catch {
    return undefined;
  }
}

class ManifestParser {
  private readonly problems: ParseProblem[] = [];
  /** Keys that are lists or mappings, by the name that stands for them in the data (collectionKeyName). */
  private readonly collectionKeys = new Map<string, Node>();
  /** Paths (joined) that already have a problem, so the model builder does not report them twice. */
  private readonly reported = new Set<string>();
  private doc!: Document.Parsed;
  /** Where the last full lookup's parent path led (see locate). */
  private lastParent:
    | { readonly path: Path; readonly doc: Document.Parsed; readonly node: Node | null; readonly viaAlias: boolean }
    | undefined;

  constructor(
    private readonly source: SourceText,
    private readonly uri: string,
    private readonly format: 'yaml' | 'json',
    private readonly scope?: VolumeScope,
  ) {}

  /**
   * Reads one list item (`- name: ...` and its lines, alone in `snippet`) as the volume, pool or
   * account at `scope.path`, with the spans and problems the whole-document parse would give it.
   * Undefined when that cannot be vouched for: the caller then parses the whole document.
   */
  runItem(
    level: ManifestItemLevel,
    snippet: string,
    after: ItemAfter,
  ): ManifestItemRead<ManifestVolume | ManifestPool | ManifestAccount> | undefined {
    const path = this.scope!.path;
    // Too deep for the parser: the whole-document read reports it (run).
    if (nestingPastBound(snippet)) return undefined;
    if (after === 'sibling') {
      // Read as the whole document has it: followed by a sibling item (`- x` at the item's
      // indentation). One parse, where reading the item alone and then checking with such a
      // sibling (endsWithItem) took two: a large pool's or account's parse is much of a whole one.
      this.doc = parseYaml(yamlReadableText(withSibling(snippet)));
      const root = this.doc.contents;
      if (this.doc.warnings.length > 0 || stackExhaustion(this.doc.errors) || !isSeq(root) || root.items.length !== 2)
        return undefined;
      const sibling = root.items[1];
      if (!isScalar(sibling) || sibling.value !== SIBLING_VALUE) return undefined;
      // An error that reaches the sibling's line (an unclosed quote or bracket that ran on) is the rest of the document's.
      const contentEnd = trimmedEnd(snippet, snippet.length)!;
      if (this.doc.errors.some((e) => e.pos[0] >= contentEnd || e.pos[1] > snippet.length + 1)) return undefined;
    } else {
      this.doc = parseYaml(yamlReadableText(snippet));
      const root = this.doc.contents;
      if (this.doc.warnings.length > 0 || stackExhaustion(this.doc.errors) || !isSeq(root) || root.items.length !== 1)
        return undefined;
      // The list's last item with syntax errors and more after it: where yaml's node of the
      // enclosing item now ends only a whole parse can say. At the end of the document the
      // snippet holds everything that follows, as the whole document has it.
      if (this.doc.errors.length > 0 && after !== 'end') return undefined;
    }
    this.reportSyntaxErrors();
    const itemNode = (this.doc.contents as YAMLSeq).items[0] as Node;
    this.findDuplicateKeys(itemNode);
    const data = (this.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as unknown[])[0];
    const schema = level === 'volume' ? volumeSchema : level === 'pool' ? poolSchema : accountSchema;
    const result = schema.safeParse(data);
    if (!result.success) {
      const whole = dataAt(path, data);
      for (const issue of result.error.issues)
        this.reportIssue({ ...issue, path: [...path, ...issue.path] } as z.core.$ZodIssue, whole);
    }
    const item =
      level === 'volume'
        ? this.volume(path, data)
        : level === 'pool'
          ? this.pool(path, data)
          : this.account(path, data);
    return { item, problems: inDocumentOrder(this.problems), syntaxErrors: this.doc.errors.length > 0 };
  }

  private reportSyntaxErrors(): void {
    const offset = this.scope?.offset ?? 0;
    for (const error of this.doc.errors) {
      const { start, end } = this.visibleSpan(error.pos[0] + offset, error.pos[1] + offset);
      const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      this.problems.push({
        code: PARSE_CODES.syntax,
        span: { start, end: Math.max(end, start) },
        message: `${this.format === 'json' ? 'JSON' : 'YAML'} syntax: ${message}`,
      });
    }
  }

  run(): ManifestParseResult {
    const text = this.source.text;
    // Refused before any parser sees it: a parser that runs out of stack can abort the process (nesting.ts).
    const tooDeep = nestingPastBound(text);
    if (tooDeep) {
      const at = this.visibleSpan(tooDeep.offset, tooDeep.offset + 1);
      return { volumes: [], problems: [{ code: PARSE_CODES.syntax, span: at, message: tooDeepMessage() }] };
    }
    // Strict JSON is read by jsonc-parser into the same nodes (jsonDocument.ts); anything else by yaml.
    this.doc = (this.format === 'json' ? strictJsonDocument(text) : undefined) ?? parseYaml(yamlReadableText(text));
    takeNodeTests(); // jsonDocument.ts makes yaml's nodes too
    if (stackExhaustion(this.doc.errors)) {
      return {
        volumes: [],
        problems: [{ code: PARSE_CODES.syntax, span: this.visibleSpan(0, 0), message: TOO_DEEP_MESSAGE }],
      };
    }
    this.reportSyntaxErrors();
    // Before toJS: the walk also names the keys that are lists or mappings (see collectionKeyName).
    if (this.doc.contents) this.findDuplicateKeys(this.doc.contents as Node);

    let data: unknown;
    try {
      data = this.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const span = this.firstAliasSpan() ?? { start: 0, end: 0 };
      // An alias bomb is reported alone.
      for (let i = this.problems.length - 1; i >= 0; i--)
        if (this.problems[i]!.code === PARSE_CODES.duplicateKey) this.problems.splice(i, 1);
      this.problems.push({
        code: PARSE_CODES.syntax,
        span,
        message: `The aliases in this file expand to too many nodes (more than ${MAX_ALIAS_COUNT} alias expansions): ${message}. Write the values out instead.`,
      });
      return { volumes: [], problems: this.problems };
    }

    if (data === null || data === undefined) {
      if (this.doc.errors.length === 0) {
        this.problems.push({
          code: PARSE_CODES.missingKey,
          span: { start: 0, end: 0 },
          message:
            'The manifest is empty: start with `accounts:`, a list of NetApp accounts with their capacity pools and volumes.',
        });
      }
      return { volumes: [], problems: this.problems };
    }

    const result = manifestSchema.safeParse(data);
    if (!result.success) for (const issue of result.error.issues) this.reportIssue(issue, data);

    const manifest = this.buildManifest(data, this.doc.errors.length > 0);
    return { manifest, volumes: summarizeVolumes(manifest, this.uri), problems: inDocumentOrder(this.problems) };
  }

  // -------------------------------------------------------------------------------------------
  // Positions

  private spanOf(node: Node | null | undefined): Span {
    const range = node?.range;
    if (!range) return { start: 0, end: 0 };
    const offset = this.scope?.offset ?? 0;
    // Block collections end after their last line break: stop at the last character of content.
    const length = this.source.text.length;
    const start = Math.min(range[0] + offset, length);
    let end = Math.min(Math.max(start, range[1] + offset), length);
    while (end > start && /\s/.test(this.source.text.charAt(end - 1))) end--;
    return { start: range[0] + offset, end };
  }

  /**
   * An error position as a span an editor can show: clamped to the text, and never empty (an
   * error at the end of the file underlines the last character of content).
   */
  private visibleSpan(from: number, to: number): Span {
    const text = this.source.text;
    let start = Math.min(Math.max(0, from), text.length);
    let end = Math.min(Math.max(to, start), text.length);
    if (start === end) {
      if (end < text.length && !/\s/.test(text.charAt(end))) end++;
      else {
        while (start > 0 && /\s/.test(text.charAt(start - 1))) start--;
        if (start > 0) start--;
        end = Math.min(text.length, start + 1);
      }
    }
    return { start, end };
  }

  /** The first line of a node: where findings about a whole list item go. */
  private headSpan(node: Node | null | undefined): Span {
    const span = this.spanOf(node);
    const line = this.source.positionAt(span.start).line;
    return { start: span.start, end: Math.min(span.end, this.source.lineEnd(line)) || span.start };
  }

  private firstAliasSpan(): Span | undefined {
    let found: Span | undefined;
    const visit = (node: unknown): void => {
      if (found) return;
      if (isAlias(node)) found = this.spanOf(node);
      else if (isMap(node)) for (const pair of node.items) visit(pair.value);
      else if (isSeq(node)) for (const item of node.items) visit(item);
    };
    visit(this.doc.contents);
    return found;
  }

  /**
   * The node at a path of keys and indexes, following aliases and merge keys. `viaAlias` says the
   * text is shared with another place; `key` is the key in front of the value (the pair's key).
   */
  private locate(wholePath: Path): At | undefined {
    const path = this.scope ? scopedPath(this.scope.path, wholePath) : wholePath;
    if (!path) return undefined;
    let node: Node | null = (this.doc.contents as Node | null) ?? null;
    let key: Node | undefined;
    let pair: Pair | undefined;
    let viaAlias = false;
    // The model builder asks for the fields of one item in a row: start from the item's node,
    // found by the previous lookup, instead of walking down from the root for every field.
    let from = 0;
    const parent = this.lastParent;
    if (
      parent &&
      parent.doc === this.doc &&
      parent.path.length === path.length - 1 &&
      parent.path.every((segment, i) => segment === path[i])
    ) {
      node = parent.node;
      viaAlias = parent.viaAlias;
      from = parent.path.length;
    }
    for (let i = from; i < path.length; i++) {
      if (i === path.length - 1 && i > 0 && from === 0)
        this.lastParent = { path: path.slice(0, i), doc: this.doc, node, viaAlias };
      const segment = path[i]!;
      if (isAlias(node)) {
        node = (node.resolve(this.doc) as Node | undefined) ?? null;
        viaAlias = true;
      }
      if (isMap(node)) {
        const found = findPair(node.items as Pair[], String(segment));
        if (found) {
          pair = found;
          key = found.key as Node;
          node = (found.value as Node | null) ?? null;
          continue;
        }
        const merged = this.findMerged(node.items as Pair[], String(segment));
        if (!merged) return undefined;
        pair = merged;
        key = merged.key as Node;
        node = (merged.value as Node | null) ?? null;
        viaAlias = true;
        continue;
      }
      if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment] as Node | undefined;
        if (item === undefined) return undefined;
        pair = undefined;
        key = item;
        node = item;
        continue;
      }
      return undefined;
    }
    return { node, ...(key ? { key } : {}), ...(pair ? { pair } : {}), viaAlias };
  }

  /** A key that comes from a `<<` merge: the pair is found in the merged map; the span is the merge's. */
  private findMerged(items: readonly Pair[], key: string): Pair | undefined {
    for (const pair of [...items].reverse()) {
      if (!isMergeKey(pair.key)) continue;
      const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
      for (const sourceNode of sources) {
        const target = isAlias(sourceNode) ? sourceNode.resolve(this.doc) : sourceNode;
        if (isMap(target) && (findPair(target.items as Pair[], key) || this.findMerged(target.items as Pair[], key))) {
          return pair;
        }
      }
    }
    return undefined;
  }

  /**
   * One step of locate: the value at `segment` of a located map or list (through an alias or a
   * merge key as locate goes). The model builder finds each field from its item's node this way.
   */
  private child(at: At | undefined, segment: string | number): At | undefined {
    if (!at) return undefined;
    let node = at.node;
    let viaAlias = at.viaAlias;
    if (isAlias(node)) {
      node = (node.resolve(this.doc) as Node | undefined) ?? null;
      viaAlias = true;
    }
    if (isMap(node)) {
      const found = findPair(node.items as Pair[], String(segment));
      if (found) return { node: (found.value as Node | null) ?? null, key: found.key as Node, pair: found, viaAlias };
      const merged = this.findMerged(node.items as Pair[], String(segment));
      return merged
        ? { node: (merged.value as Node | null) ?? null, key: merged.key as Node, pair: merged, viaAlias: true }
        : undefined;
    }
    if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as Node | undefined;
      return item === undefined ? undefined : { node: item, key: item, viaAlias };
    }
    return undefined;
  }

  private located<T>(path: Path, value: T): Located<T> | undefined {
    return this.locatedAt(this.locate(path), value);
  }

  private locatedAt<T>(at: At | undefined, value: T): Located<T> | undefined {
    if (!at) return undefined;
    const node = at.node;
    // A merged key: underline the `<<` line, whose alias brings the value in.
    const span =
      at.pair && isMergeKey(at.key)
        ? this.spanOf(at.pair.value as Node)
        : isAlias(node) || node
          ? this.spanOf(node)
          : this.spanOf(at.key);
    const keySpan = this.spanOf(at.key ?? node);
    const raw = detached(this.source.text.slice(span.start, span.end));
    if (typeof value === 'string') value = detached(value) as T;
    let editSpan: Span | undefined;
    const aliasOrMerge = at.viaAlias || isAlias(node) || isMergeKey(at.key);
    if (!aliasOrMerge && isScalar(node)) {
      if (node.type === Scalar.PLAIN) editSpan = span;
      else if (node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE)
        editSpan = { start: span.start + 1, end: span.end - 1 };
    }
    return editSpan ? { value, span, keySpan, raw, editSpan } : { value, span, keySpan, raw };
  }

  // -------------------------------------------------------------------------------------------
  // Duplicate keys, and keys that are lists or mappings

  /**
   * A list or mapping used as a key (in a broken document, yaml reads the rest of an account as
   * one such key) stands in the data as a short name: yaml's toJS would write the whole
   * collection out as the key's name, which takes long and made a finding of that size.
   */
  private collectionKeyName(key: Node): Scalar {
    const name = `${COLLECTION_KEY_PREFIX}${this.collectionKeys.size}`;
    this.collectionKeys.set(name, key);
    const stand = new Scalar(name);
    if (key.range) stand.range = key.range;
    return stand;
  }

  private findDuplicateKeys(root: Node): void {
    // The document is a tree (an alias is a node of its own, not followed here): no node is met twice.
    const visit = (node: unknown): void => {
      if (!node || typeof node !== 'object') return;
      if (isMap(node)) {
        const first = new Map<string, Pair>();
        for (const pair of node.items as Pair[]) {
          if (isMap(pair.key) || isSeq(pair.key)) pair.key = this.collectionKeyName(pair.key);
          else if (isScalar(pair.key) && !isMergeKey(pair.key)) {
            const name = String(pair.key.value);
            const earlier = first.get(name);
            if (earlier) {
              const earlierLine = this.source.positionAt(this.spanOf(earlier.key as Node).start).line + 1;
              this.problems.push({
                code: PARSE_CODES.duplicateKey,
                span: this.spanOf(pair.key as Node),
                message: `\`${name}\` is set twice in this mapping (first on line ${earlierLine}). Only the last value counts; keep one.`,
                related: [{ uri: this.uri, span: this.spanOf(earlier.key as Node), message: `First \`${name}\`` }],
              });
            } else first.set(name, pair);
          }
          visit(pair.value);
        }
      } else if (isSeq(node)) for (const item of node.items) visit(item);
    };
    visit(root);
  }

  // -------------------------------------------------------------------------------------------
  // Schema issues

  private reportIssue(issue: z.core.$ZodIssue, data: unknown): void {
    if (issue.code === 'invalid_union' && 'errors' in issue && Array.isArray(issue.errors)) {
      // Report the branch that matched the value's shape best: the one whose issues go deepest.
      const branches = issue.errors as z.core.$ZodIssue[][];
      const best = [...branches].sort((a, b) => depth(b) - depth(a))[0] ?? [];
      if (best.length > 0 && depth(best) > 0) {
        for (const inner of best)
          this.reportIssue({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue, data);
        return;
      }
    }
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) if (!key.startsWith(EXTENSION_PREFIX)) this.reportUnknownKey([...path], key);
      return;
    }
    const parentValue = valueAt(data, path.slice(0, -1));
    const last = path[path.length - 1];
    const missing =
      (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') &&
      last !== undefined &&
      isRecord(parentValue) &&
      !(String(last) in parentValue);
    if (missing) {
      this.reportMissing(path);
      return;
    }
    const at = this.located(path, undefined);
    const span = at?.span ?? { start: 0, end: 0 };
    this.reported.add(path.join('.'));
    const schema = schemaAt(manifestSchema, path);
    const description = schema ? describe(schema) : undefined;
    let message = `\`${path.join('.') || '(document)'}\`: ${issue.message}`;
    const fixes = [];
    if (issue.code === 'invalid_value' && 'values' in issue) {
      const values = (issue.values as unknown[]).map(String);
      const actual = valueAt(data, path);
      const suggestion = typeof actual === 'string' ? suggest(actual, values) : undefined;
      const several = typeof actual === 'string' && !suggestion ? startingLike(actual, values) : [];
      const what = typeof last === 'number' ? `entry of \`${String(path[path.length - 2])}\`` : `\`${String(last)}\``;
      const hint = suggestion
        ? ` Did you mean \`${suggestion}\`?`
        : several.length > 1
          ? ` Did you mean one of ${several.map((v) => `\`${v}\``).join(', ')}?`
          : '';
      message = `\`${String(actual)}\` is not a valid ${what}: use one of ${values.map((v) => `\`${v}\``).join(', ')}.${hint}`;
      if (suggestion && at?.editSpan)
        fixes.push(unsafeFix(`Change to \`${suggestion}\``, [{ span: at.editSpan, newText: suggestion }]));
    } else if (issue.code === 'invalid_type') {
      message = `\`${String(last ?? 'document')}\`: ${issue.message.replace(/^Invalid input: /, '')}.`;
    } else {
      message = `\`${String(last ?? 'document')}\`: ${issue.message.replace(/^Invalid input: /, '')}`;
    }
    if (description && issue.code !== 'invalid_value' && !message.includes(description))
      message = `${message.replace(/(?<!\.)\.+$/, '')}. ${description}`;
    this.problems.push({ code: PARSE_CODES.invalidValue, span, message, ...(fixes.length > 0 ? { fixes } : {}) });
  }

  private reportUnknownKey(path: Path, key: string): void {
    const collection = this.collectionKeys.get(key);
    if (collection) {
      this.reportCollectionKey(path, collection);
      return;
    }
    const at = this.located([...path, key], undefined);
    const schema = schemaAt(manifestSchema, path);
    const known = schema ? objectKeys(schema) : [];
    const suggestion = suggest(key, known);
    const keyNode = this.locate([...path, key]);
    const keySpan =
      keyNode?.key && !keyNode.viaAlias ? this.spanOf(keyNode.key) : (at?.keySpan ?? { start: 0, end: 0 });
    const where = path.length === 0 ? 'at the top level' : `in ${describeOwner(path)}`;
    const elsewhere = suggestion ? undefined : LEVELS.find((level) => level.keys.includes(key) && level.keys !== known);
    const hint = suggestion
      ? ` Did you mean \`${suggestion}\`?`
      : elsewhere
        ? ` \`${key}\` belongs to ${elsewhere.name}.`
        : '';
    const message = `Unknown key \`${key}\` ${where}.${hint} Known keys: ${known.filter((k) => k !== '$schema').join(', ')}.`;
    const editable = keyNode?.key && isScalar(keyNode.key) && keyNode.key.type === Scalar.PLAIN && !keyNode.viaAlias;
    this.reported.add([...path, key].join('.'));
    this.problems.push({
      code: PARSE_CODES.unknownKey,
      span: keySpan,
      message,
      ...(suggestion && editable
        ? { fixes: [unsafeFix(`Rename to \`${suggestion}\``, [{ span: keySpan, newText: suggestion }])] }
        : {}),
    });
  }

  /** A list or mapping as a key: said once, at its first line, unless a syntax error there already says it. */
  private reportCollectionKey(path: Path, key: Node): void {
    const [start, end] = key.range ?? [0, 0];
    if (this.doc.errors.some((error) => error.pos[0] >= start && error.pos[0] <= end)) return;
    const schema = schemaAt(manifestSchema, path);
    const known = schema ? objectKeys(schema) : [];
    const where = path.length === 0 ? 'at the top level' : `in ${describeOwner(path)}`;
    const what = isSeq(key) ? 'A list' : 'A mapping';
    this.problems.push({
      code: PARSE_CODES.unknownKey,
      span: this.headSpan(key),
      message: `${what} is used as a key ${where}: keys here are names. Known keys: ${known.filter((k) => k !== '$schema').join(', ')}.`,
    });
  }

  private reportMissing(path: Path): void {
    const key = String(path[path.length - 1]);
    const ownerPath = path.slice(0, -1);
    const owner = this.locate(ownerPath);
    const ownerNode = owner?.node ?? null;
    // The owner's first line (for a list item) or its key: where the missing key belongs.
    const span =
      ownerPath.length === 0
        ? this.headSpan(ownerNode)
        : typeof ownerPath[ownerPath.length - 1] === 'number'
          ? this.headSpan(ownerNode)
          : this.spanOf(owner?.key ?? ownerNode);
    const schema = schemaAt(manifestSchema, path);
    const description = schema ? describe(schema) : undefined;
    const examples = schema ? examplesOf(schema) : [];
    this.reported.add(path.join('.'));
    this.problems.push({
      code: PARSE_CODES.missingKey,
      span,
      message: `${capitalize(describeOwner(ownerPath))} needs \`${key}\`${description ? `: ${description}` : '.'}${examples.length > 0 ? ` Example: \`${key}: ${JSON.stringify(examples[0]).replace(/^"|"$/g, '')}\`` : ''}`,
    });
  }

  // -------------------------------------------------------------------------------------------
  // The model, read leniently: whatever is valid is kept; the schema issues above cover the rest.

  private buildManifest(data: unknown, syntaxErrors: boolean): ManifestDocument {
    const root = isRecord(data) ? data : {};
    const accounts = Array.isArray(root.accounts) ? root.accounts : [];
    const rootAt = this.locate([]);
    const here: Owner = { path: [], at: rootAt };
    const region = this.string(here, 'region', root.region);
    const prices = this.prices(root.prices);
    const accountsAt = this.child(rootAt, 'accounts');
    return {
      format: this.format,
      syntaxErrors,
      ...(region ? { region } : {}),
      ...(prices ? { prices } : {}),
      accounts: accounts.map((account, index) =>
        this.account(['accounts', index], account, this.child(accountsAt, index)),
      ),
    };
  }

  private account(path: Path, data: unknown, at: At | undefined = this.locate(path)): ManifestAccount {
    const record = isRecord(data) ? data : {};
    const pools = Array.isArray(record.pools) ? record.pools : [];
    const here: Owner = { path, at };
    const name = this.string(here, 'name', record.name);
    const poolsAt = this.child(at, 'pools');
    const node = at?.node ?? null;
    const account = { span: this.spanOf(node), headSpan: this.headSpan(node), path } as Mutable<ManifestAccount>;
    if (name) account.name = name;
    account.pools = pools.map((pool, index) => this.pool([...path, 'pools', index], pool, this.child(poolsAt, index)));
    if (poolsAt?.key) account.poolsKeySpan = this.spanOf(poolsAt.key);
    return account;
  }

  private pool(path: Path, data: unknown, at: At | undefined = this.locate(path)): ManifestPool {
    const record = isRecord(data) ? data : {};
    const volumes = Array.isArray(record.volumes) ? record.volumes : [];
    const here: Owner = { path, at };
    // Read in this order: a value's problem goes after the problems of the values before it.
    const name = this.string(here, 'name', record.name);
    const serviceLevel = this.oneOf<ServiceLevel>(here, 'serviceLevel', record.serviceLevel, SERVICE_LEVELS);
    const size = this.unit(here, 'size', record.size, parseSize);
    const qos = this.oneOf<'auto' | 'manual'>(here, 'qos', record.qos, QOS_TYPES);
    const throughput = this.unit(here, 'throughput', record.throughput, parseRate);
    const coolAccess = this.boolean(here, 'coolAccess', record.coolAccess);
    const networkFeatures = this.oneOf<NetworkFeatures>(
      here,
      'networkFeatures',
      record.networkFeatures,
      NETWORK_FEATURES,
    );
    const volumesAt = this.child(at, 'volumes');
    const node = at?.node ?? null;
    // Assigned one by one rather than spread: the same keys in the same order, without a copy per field.
    const pool = { span: this.spanOf(node), headSpan: this.headSpan(node), path } as Mutable<ManifestPool>;
    if (name) pool.name = name;
    if (serviceLevel) pool.serviceLevel = serviceLevel;
    if (size) pool.size = size;
    if (qos) pool.qos = qos;
    if (throughput) pool.throughput = throughput;
    if (coolAccess) pool.coolAccess = coolAccess;
    if (networkFeatures) pool.networkFeatures = networkFeatures;
    pool.volumes = volumes.map((volume, index) =>
      this.volume([...path, 'volumes', index], volume, this.child(volumesAt, index)),
    );
    if (volumesAt?.key) pool.volumesKeySpan = this.spanOf(volumesAt.key);
    return pool;
  }

  private volume(path: Path, data: unknown, at: At | undefined = this.locate(path)): ManifestVolume {
    const r = isRecord(data) ? data : {};
    const here: Owner = { path, at };
    const protocolsAt = r.protocols !== undefined ? this.child(at, 'protocols') : undefined;
    const fields = {
      name: this.string(here, 'name', r.name),
      quota: this.unit(here, 'quota', r.quota, parseSize),
      largeVolume: this.boolean(here, 'largeVolume', r.largeVolume),
      breakthroughMode: this.boolean(here, 'breakthroughMode', r.breakthroughMode),
      networkFeatures: this.oneOf<NetworkFeatures>(here, 'networkFeatures', r.networkFeatures, NETWORK_FEATURES),
      security: this.oneOf<SecurityFlavor>(here, 'security', r.security, SECURITY_FLAVORS),
      throughput: this.unit(here, 'throughput', r.throughput, parseRate),
      coolAccess: this.coolAccess(here, r.coolAccess),
      workload: this.workload(here, 'workload', r.workload),
      exportPath: this.string(here, 'exportPath', r.exportPath),
      mountTarget: this.string(here, 'mountTarget', r.mountTarget),
      mountPath: this.string(here, 'mountPath', r.mountPath),
      requirements: this.requirements(here, r.requirements),
      protocolsNode: r.protocols !== undefined ? this.locatedAt(protocolsAt, r.protocols as unknown) : undefined,
    };
    const protocols: Located<Protocol>[] = [];
    if (Array.isArray(r.protocols)) {
      const list: Owner = { path: [...path, 'protocols'], at: protocolsAt };
      for (let index = 0; index < r.protocols.length; index++) {
        const located = this.oneOf<Protocol>(list, index, r.protocols[index], PROTOCOLS);
        if (located) protocols.push(located);
      }
    }
    const node = at?.node ?? null;
    const volume: Record<string, unknown> = { span: this.spanOf(node), headSpan: this.headSpan(node), path };
    for (const key in fields) {
      const value = fields[key as keyof typeof fields];
      if (value !== undefined) volume[key] = value;
    }
    volume.protocols = protocols;
    return volume as unknown as ManifestVolume;
  }

  private requirements(owner: Owner, data: unknown): ManifestRequirements | undefined {
    if (!isRecord(data)) return undefined;
    const at = this.child(owner.at, 'requirements');
    const here: Owner = { path: [...owner.path, 'requirements'], at };
    const fields = {
      capacity: this.unit(here, 'capacity', data.capacity, parseSize),
      throughput: this.unit(here, 'throughput', data.throughput, parseRate),
      iops: this.count(here, 'iops', data.iops),
      blockSize: this.unit(here, 'blockSize', data.blockSize, parseSize),
      latency: this.unit(here, 'latency', data.latency, parseDuration),
      clients: this.count(here, 'clients', data.clients),
      readPercent:
        typeof data.readPercent === 'number' && data.readPercent >= 0 && data.readPercent <= 100
          ? this.locatedAt(this.child(at, 'readPercent'), data.readPercent)
          : undefined,
    };
    return { span: this.spanOf(at?.node), ...definedOnly(fields) };
  }

  private coolAccess(owner: Owner, data: unknown): ManifestCoolAccess | undefined {
    if (data === undefined || data === null) return undefined;
    const at = this.child(owner.at, 'coolAccess');
    const node = this.locatedAt(at, data);
    if (!node) return undefined;
    if (typeof data === 'boolean') {
      return {
        node,
        enabled: data,
        enabledValue: node as Located<boolean>,
        coolnessPeriodDays: 0,
        retrievalPolicy: 'Default',
        tieringPolicy: 'Auto',
      };
    }
    if (!isRecord(data)) return undefined;
    const enabledValue = this.boolean({ path: [...owner.path, 'coolAccess'], at }, 'enabled', data.enabled);
    const period = typeof data.coolnessPeriod === 'number' ? data.coolnessPeriod : 0;
    return {
      node,
      enabled: enabledValue?.value ?? true,
      ...(enabledValue ? { enabledValue } : {}),
      coolnessPeriodDays: period,
      retrievalPolicy: typeof data.retrievalPolicy === 'string' ? data.retrievalPolicy : 'Default',
      tieringPolicy: typeof data.tieringPolicy === 'string' ? data.tieringPolicy : 'Auto',
    };
  }

  private prices(data: unknown): ManifestPriceOverrides | undefined {
    if (!isRecord(data)) return undefined;
    const capacity = isRecord(data.capacityPerGiBHour)
      ? Object.fromEntries(
          SERVICE_LEVELS.flatMap((level) => {
            const value = (data.capacityPerGiBHour as Record<string, unknown>)[level];
            return typeof value === 'number' && value > 0 ? [[level, value]] : [];
          }),
        )
      : undefined;
    const throughput =
      typeof data.flexibleThroughputPerMiBpsHour === 'number' && data.flexibleThroughputPerMiBpsHour > 0
        ? data.flexibleThroughputPerMiBpsHour
        : undefined;
    return {
      ...(capacity && Object.keys(capacity).length > 0 ? { capacityPerGiBHour: capacity } : {}),
      ...(throughput !== undefined ? { flexibleThroughputPerMiBpsHour: throughput } : {}),
    };
  }

  // A field of an item: its node is found from the item's (child), its path only made for a problem.

  private string(owner: Owner, key: string, value: unknown): Located<string> | undefined {
    return typeof value === 'string' ? this.locatedAt(this.child(owner.at, key), value) : undefined;
  }

  private boolean(owner: Owner, key: string, value: unknown): Located<boolean> | undefined {
    return typeof value === 'boolean' ? this.locatedAt(this.child(owner.at, key), value) : undefined;
  }

  private oneOf<T extends string>(
    owner: Owner,
    key: string | number,
    value: unknown,
    values: readonly string[],
  ): Located<T> | undefined {
    return typeof value === 'string' && values.includes(value)
      ? this.locatedAt(this.child(owner.at, key), value as T)
      : undefined;
  }

  private workload(owner: Owner, key: string, value: unknown): Located<WorkloadKind> | undefined {
    return typeof value === 'string' && isWorkloadKind(value)
      ? this.locatedAt(this.child(owner.at, key), value)
      : undefined;
  }

  private unit<T>(
    owner: Owner,
    key: string,
    value: unknown,
    parse: (text: string) => Parsed<T>,
  ): Located<T> | undefined {
    if (typeof value !== 'string') return undefined;
    const parsed = parse(value);
    if (parsed.ok) return this.locatedAt(this.child(owner.at, key), parsed.value);
    this.reportParseFailure([...owner.path, key], parsed.error);
    return undefined;
  }

  private count(owner: Owner, key: string, value: unknown): Located<number> | undefined {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0)
      return this.locatedAt(this.child(owner.at, key), value);
    if (typeof value !== 'string') return undefined;
    const parsed = parseCount(value);
    if (parsed.ok) return this.locatedAt(this.child(owner.at, key), parsed.value);
    this.reportParseFailure([...owner.path, key], parsed.error);
    return undefined;
  }

  private reportParseFailure(path: Path, error: string): void {
    const key = path.join('.');
    if (this.reported.has(key)) return;
    this.reported.add(key);
    const at = this.located(path, undefined);
    this.problems.push({
      code: PARSE_CODES.invalidValue,
      span: at?.span ?? { start: 0, end: 0 },
      message: `\`${String(path[path.length - 1])}\`: ${error}`,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** `<<: *defaults`: yaml gives the merge key a symbol value. */
function isMergeKey(key: unknown): boolean {
  return isScalar(key) && (typeof key.value === 'symbol' || key.value === '<<');
}

function findPair(items: readonly Pair[], key: string): Pair | undefined {
  // The model builder looks up every field of an item in its mapping: index the mapping once.
  let index = PAIR_INDEXES.get(items);
  if (!index) {
    index = new Map();
    // The last one wins, as in the data (duplicates are reported separately).
    for (const pair of items)
      if (isPair(pair) && isScalar(pair.key) && !isMergeKey(pair.key)) index.set(String(pair.key.value), pair);
    PAIR_INDEXES.set(items, index);
  }
  return index.get(key);
}

/** A mapping's pairs by key (findPair), per items array of a parsed document. */
const PAIR_INDEXES = new WeakMap<readonly Pair[], Map<string, Pair>>();

/** What a sibling item's scalar reads as (parseManifestItem's `after`). */
const SIBLING_VALUE = 'x';

/** The item's lines followed by a sibling list item at the item's indentation. */
function withSibling(snippet: string): string {
  const indent = snippet.length - snippet.trimStart().length;
  return `${snippet}\n${' '.repeat(indent)}- ${SIBLING_VALUE}\n`;
}

/** An offset into `text` moved back over white space (as spans end); undefined stays undefined. */
function trimmedEnd(text: string, offset: number | undefined): number | undefined {
  if (offset === undefined) return undefined;
  let end = Math.min(offset, text.length);
  while (end > 0 && /\s/.test(text.charAt(end - 1))) end--;
  return end;
}

/** A path of the whole manifest as a path into a volume snippet (a one-item list); undefined outside it. */
function scopedPath(base: Path, path: Path): Path | undefined {
  if (path.length < base.length || base.some((segment, i) => path[i] !== segment)) return undefined;
  return [0, ...path.slice(base.length)];
}

/** A sparse whole-manifest value with `value` at `path`, for the schema-issue helpers that look up parents. */
function dataAt(path: Path, value: unknown): unknown {
  let data = value;
  for (let i = path.length - 1; i >= 0; i--) {
    const segment = path[i]!;
    if (typeof segment === 'number') {
      const parent: unknown[] = [];
      parent[segment] = data;
      data = parent;
    } else data = { [segment]: data };
  }
  return data;
}

/**
 * A copy of a piece of the text that does not keep the whole text alive. V8 makes a substring of
 * 13 characters or more a view into its parent string: a value kept in the model (a mount path,
 * a name, a value's raw text) would keep that version's whole text in memory, and an incremental
 * read keeps the values of the items it did not read again, so every version an edit went
 * through stayed in memory until the next whole parse (at 19,000 lines about 30 texts of 0.6 MB
 * after 200 edits). Joining to a one-character string and slicing it off again makes V8 copy the
 * characters into a string of their own (the view is then into that copy).
 */
function detached(text: string): string {
  return text.length < SHORTEST_VIEW ? text : ` ${text}`.slice(1);
}

/** V8's shortest substring that is a view into its parent (SlicedString::kMinLength); shorter ones are copies. */
const SHORTEST_VIEW = 13; // not a fact: a V8 constant

/** Problems by where they start; ties keep the order they were found in (the sort is stable). */
function inDocumentOrder(problems: ParseProblem[]): ParseProblem[] {
  return problems.sort((a, b) => a.span.start - b.span.start);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(data: unknown, path: Path): unknown {
  let value = data;
  for (const segment of path) {
    if (Array.isArray(value) && typeof segment === 'number') value = value[segment];
    else if (isRecord(value)) value = value[String(segment)];
    else return undefined;
  }
  return value;
}

function depth(issues: readonly z.core.$ZodIssue[]): number {
  return Math.max(0, ...issues.map((i) => i.path.length + (i.code === 'invalid_type' ? 0 : 1)));
}

function definedOnly<T extends Record<string, unknown>>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  // A loop, not entries/filter/fromEntries: it runs for every volume of a whole parse. Same key order.
  const defined: Record<string, unknown> = {};
  for (const key in fields) if (fields[key] !== undefined) defined[key] = fields[key];
  return defined as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "the volume at accounts[0].pools[1].volumes[2]" in words. */
function describeOwner(path: Path): string {
  if (path.length === 0) return 'the manifest';
  const last = path[path.length - 1];
  const container = typeof last === 'number' ? path[path.length - 2] : last;
  const names: Record<string, string> = {
    accounts: 'a NetApp account',
    pools: 'a capacity pool',
    volumes: 'a volume',
    requirements: '`requirements`',
    coolAccess: '`coolAccess`',
    prices: '`prices`',
    capacityPerGiBHour: '`capacityPerGiBHour`',
  };
  return names[String(container)] ?? `\`${String(container)}\``;
}

/** Candidates that start like the input, or that the input starts with (`eda` -> eda-tools, eda-scratch). */
function startingLike(input: string, candidates: readonly string[]): string[] {
  const lower = input.toLowerCase();
  if (lower.length === 0) return [];
  return candidates.filter((c) => c.toLowerCase().startsWith(lower) || lower.startsWith(c.toLowerCase()));
}

/** Did-you-mean: a case-insensitive match, else the closest name within a third of its length. */
export function suggest(input: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const exact = candidates.find((c) => c.toLowerCase() === input.toLowerCase());
  if (exact) return exact;
  const prefixed = startingLike(input, candidates);
  if (prefixed.length === 1) return prefixed[0];
  if (prefixed.length > 1) return undefined;
  const best = closest(input, [...candidates]);
  // Short names allow one edit; from five letters on, two (a swapped pair of letters, `qouta`).
  const longName = 5; // not a fact: typo tolerance
  const limit = Math.max(input.length >= longName ? 2 : 1, Math.floor(Math.max(best.length, input.length) / 3));
  return distance(input.toLowerCase(), best.toLowerCase()) <= limit ? best : undefined;
}

type AnySchema = z.core.$ZodType;

/** The levels of the format, for "`qos` belongs to a capacity pool". */
const LEVELS: readonly { name: string; keys: string[] }[] = [
  { name: 'a capacity pool', keys: objectKeys(poolSchema) },
  { name: 'a volume', keys: objectKeys(volumeSchema) },
  { name: 'a NetApp account', keys: objectKeys(accountSchema) },
  { name: "a volume's `requirements`", keys: objectKeys(requirementsSchema) },
];

function defOf(schema: AnySchema): Record<string, unknown> & { type: string } {
  return (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
}

/** Through optional, default, nullable wrappers. */
function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (
      (def.type === 'optional' || def.type === 'default' || def.type === 'nullable' || def.type === 'prefault') &&
      def.innerType
    )
      current = def.innerType as AnySchema;
    else return current;
  }
}

/** The schema that describes the value at a path (object fields, array items, the object branch of a union). */
export function schemaAt(root: AnySchema, path: Path): AnySchema | undefined {
  let current: AnySchema | undefined = root;
  for (const segment of path) {
    if (!current) return undefined;
    let inner = unwrap(current);
    let def = defOf(inner);
    if (def.type === 'union') {
      const option = (def.options as AnySchema[]).find(
        (o) => defOf(unwrap(o)).type === (typeof segment === 'number' ? 'array' : 'object'),
      );
      if (!option) return undefined;
      inner = unwrap(option);
      def = defOf(inner);
    }
    if (def.type === 'array' && typeof segment === 'number') current = def.element as AnySchema;
    else if (def.type === 'object') current = (def.shape as Record<string, AnySchema>)[String(segment)];
    else return undefined;
  }
  return current;
}

function objectKeys(schema: AnySchema): string[] {
  let inner = unwrap(schema);
  let def = defOf(inner);
  if (def.type === 'union') {
    const option = (def.options as AnySchema[]).find((o) => defOf(unwrap(o)).type === 'object');
    if (!option) return [];
    inner = unwrap(option);
    def = defOf(inner);
  }
  return def.type === 'object' ? Object.keys(def.shape as Record<string, unknown>) : [];
}

function metaOf(schema: AnySchema): { description?: string; examples?: unknown[]; title?: string } | undefined {
  return registeredMeta(schema) as { description?: string; examples?: unknown[] } | undefined;
}

function describe(schema: AnySchema): string | undefined {
  return metaOf(schema)?.description ?? metaOf(unwrap(schema))?.description;
}

function examplesOf(schema: AnySchema): unknown[] {
  return metaOf(schema)?.examples ?? metaOf(unwrap(schema))?.examples ?? [];
}
