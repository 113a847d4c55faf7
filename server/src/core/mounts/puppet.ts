import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import type { MountEntry } from './model';
import { readOptionText } from './optionStrings';
import { isNfsType, isTemplated, literalParts, looksLikeNfsSource, splitNfsSource } from './optionText';

/**
 * Puppet `mount` resources (`*.pp`), Puppet's built-in type (puppetlabs-mount_core):
 *
 * ```puppet
 * mount { '/hana/shared':
 *   ensure  => mounted,
 *   device  => '10.20.1.4:/hn1-shared',
 *   fstype  => 'nfs',
 *   options => 'rw,hard,vers=4.1',
 * }
 * ```
 *
 * The mount point is `name`, else the title; `device`, `fstype`, `options` (one comma-separated
 * string, as in fstab), `dump`, `pass`; `ensure => absent` and `unmounted` are skipped. Several
 * bodies separated by `;`, virtual and exported resources (`@mount`, `@@mount`) are read; an array
 * of titles, and resource defaults (`Mount { … }`) are not. No parser of the Puppet language is
 * published for JavaScript: this reads the resource syntax only (strings with their escapes,
 * comments, nested brackets), and a value it cannot read literally (`"${ip}:/data"`, `$opts`) is
 * an unknown part. Never throws.
 */
export function parsePuppet(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  void problems;
  const text = source.text;
  const mounts: MountEntry[] = [];
  for (const match of text.matchAll(RESOURCE)) {
    const open = match.index! + match[0].length - 1; // the `{`
    if (inCommentOrString(text, match.index!)) continue;
    let i = open + 1;
    for (;;) {
      // title `:` attributes, up to `;` (another body) or `}`
      i = skipBlank(text, i);
      const title = readValue(text, i);
      if (!title) break;
      i = skipBlank(text, title.end);
      if (text[i] !== ':') break;
      i++;
      const attributes = new Map<string, Value>();
      for (;;) {
        i = skipBlank(text, i);
        ATTRIBUTE.lastIndex = i;
        const name = ATTRIBUTE.exec(text);
        if (!name) break;
        i = skipBlank(text, i + name[0].length);
        if (text.slice(i, i + 2) !== '=>') break;
        i = skipBlank(text, i + 2);
        const value = readValue(text, i);
        if (!value) break;
        attributes.set(name[0], value);
        i = skipBlank(text, value.end);
        if (text[i] === ',') i++;
      }
      const entry = resourceMount(text, uri, title, attributes, {
        start: match.index! + match[0].indexOf('mount'),
        end: i,
      });
      if (entry) mounts.push(entry);
      i = skipBlank(text, i);
      if (text[i] !== ';') break;
      i++;
    }
  }
  return mounts;
}

/** An attribute name, read where it starts (sticky). */
const ATTRIBUTE = /[a-z_]\w*/y;
/** A bare word, number or variable, with an optional `[…]` reference (`File['/x']`), read where it starts (sticky). */
const BARE_VALUE = /(?:\$\{?[\w:]+\}?|[\w.:/-]+)(?:\[[^\]\n]*\])?/y;

/** `mount {`, `@mount {`, `@@mount {` at a word start (not `Mount {` defaults, not `foo::mount {`). */
const RESOURCE = /(?<![\w:])@{0,2}mount[ \t\r\n]*\{/g;

interface Value {
  /** The value as Puppet reads it; for a string, its characters; undefined when not literal. */
  readonly text?: string;
  /** Where the characters of `text` start in the document (inside the quotes). */
  readonly start: number;
  readonly end: number;
  /** Where the value's characters end (before a closing quote). */
  readonly textEnd: number;
}

/** Reads one value at `i`: a quoted string, a bare word or number, a variable, or a bracketed value. */
function readValue(text: string, i: number): Value | undefined {
  const ch = text[i];
  if (ch === undefined) return undefined;
  if (ch === "'" || ch === '"') {
    let j = i + 1;
    let escaped = false;
    while (j < text.length && text[j] !== ch) {
      if (text[j] === '\\') {
        escaped = true;
        j++;
      }
      j++;
    }
    const body = text.slice(i + 1, Math.min(j, text.length));
    // `\\` and `\'` in single quotes, escapes in double quotes: not the text as written; `${x}`: unknown.
    const literal = !escaped && !(ch === '"' && body.includes('$'));
    return {
      ...(literal ? { text: body } : {}),
      start: i + 1,
      textEnd: Math.min(j, text.length),
      end: Math.min(j + 1, text.length),
    };
  }
  if (ch === '[' || ch === '{') {
    const close = ch === '[' ? ']' : '}';
    let depth = 0;
    let j = i;
    while (j < text.length) {
      const c = text[j]!;
      if (c === "'" || c === '"') {
        j = readValue(text, j)!.end;
        continue;
      }
      if (c === ch) depth++;
      else if (c === close && --depth === 0) return { start: i, textEnd: j + 1, end: j + 1 };
      j++;
    }
    return { start: i, textEnd: text.length, end: text.length };
  }
  BARE_VALUE.lastIndex = i;
  const word = BARE_VALUE.exec(text);
  if (!word) return undefined;
  const end = i + word[0].length;
  return { ...(word[0].startsWith('$') ? {} : { text: word[0] }), start: i, textEnd: end, end };
}

function skipBlank(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text[i] === '#') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (text[i] === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      continue;
    }
    return i;
  }
}

/** Whether `at` is inside a `#` comment on its line (a cheap check; strings spanning lines are rare around `mount {`). */
function inCommentOrString(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const before = text.slice(lineStart, at);
  return before.includes('#') || before.split("'").length % 2 === 0 || before.split('"').length % 2 === 0;
}

function resourceMount(
  text: string,
  uri: string,
  title: Value,
  attributes: ReadonlyMap<string, Value>,
  span: Span,
): MountEntry | undefined {
  const ensure = attributes.get('ensure')?.text;
  if (ensure === 'absent' || ensure === 'unmounted') return undefined;
  const device = attributes.get('device');
  const fstype = attributes.get('fstype');
  if (!device) return undefined;
  const path = attributes.get('name') ?? title;
  const options = attributes.get('options');
  const at = (v: Value): Span => ({ start: v.start, end: v.textEnd });
  const deviceText = device.text;
  const parts = deviceText !== undefined ? splitNfsSource(deviceText) : undefined;
  const shape = options?.text !== undefined ? readOptionText(options.text, options.start) : undefined;
  const unknownOptions = options !== undefined && options.text === undefined;
  const templated =
    unknownOptions ||
    [deviceText, path.text, fstype?.text].some((t) => t === undefined || isTemplated(t)) ||
    (shape?.options.some((o) => o.templated) ?? false);
  const dump = attributes.get('dump');
  const pass = attributes.get('pass');
  return {
    uri,
    origin: 'puppet',
    host: 'puppet',
    ...(deviceText !== undefined ? { source: deviceText } : {}),
    sourceSpan: at(device),
    ...(parts ? literalParts(parts) : {}),
    ...(path.text !== undefined
      ? { mountPoint: path.text, mountPointSpan: at(path), mountPointDecoded: path.text }
      : {}),
    ...(fstype?.text !== undefined ? { fsType: fstype.text, fsTypeSpan: at(fstype) } : {}),
    options: shape
      ? shape.options
      : unknownOptions
        ? [{ name: text.slice(options.start, options.end), span: at(options), nameSpan: at(options), templated: true }]
        : [],
    ...(shape
      ? { optionsSpan: shape.body }
      : options
        ? { optionsSpan: at(options) }
        : {
            optionsSpan: { start: device.end, end: device.end },
            optionsInsertion: { before: ", options => '", after: "'" },
          }),
    isNfs:
      isNfsType(fstype?.text) || (fstype === undefined && deviceText !== undefined && looksLikeNfsSource(deviceText)),
    span,
    // Puppet's `mount` type keeps the entry in the filesystem table for `mounted`, `present` and `defined`.
    ...(ensure === 'mounted' || ensure === 'present' || ensure === 'defined' ? { persistedIn: 'fstab' as const } : {}),
    ...(templated ? { templated: true } : {}),
    ...(dump?.text !== undefined ? { dump: dump.text, dumpSpan: at(dump) } : {}),
    ...(pass?.text !== undefined ? { fsckPass: pass.text, fsckPassSpan: at(pass) } : {}),
  };
}
