import type { ParseProblem } from '../diagnostics';
import type { SourceText, Span } from '../text/sourceText';
import type { MountEntry, MountOption } from './model';
import { readOptionText } from './optionStrings';
import { isNfsType, isTemplated, literalParts, looksLikeNfsSource, splitNfsSource } from './optionText';

/**
 * Chef Infra `mount` resources in recipes (`*.rb` with a `mount '...' do` block), as the mount
 * resource's reference describes them:
 *
 * ```ruby
 * mount '/hana/shared' do
 *   device  '10.20.1.4:/hn1-shared'
 *   fstype  'nfs'
 *   options 'rw,hard,vers=4.1'      # or %w(rw hard vers=4.1), ['rw', 'hard']
 *   action  [:mount, :enable]
 * end
 * ```
 *
 * The mount point is `mount_point`, else the resource's name; `device`, `fstype` (default "auto"),
 * `options` (a String or an Array; default `["defaults"]`), `dump`, `pass`. `action` defaults to
 * `:mount`; `:enable` adds the entry to fstab (`persistedIn`); a resource whose actions are only
 * `:umount`, `:unmount`, `:disable` or `:nothing` mounts nothing and is skipped. A double-quoted
 * string with `#{...}`, or any other Ruby expression (`node['anf']['ip']`), is an unknown part.
 * No Ruby parser is used: the block's property lines are read (strings, `%w()` and `[...]` arrays,
 * symbols, numbers) up to its `end` at the block's indentation. Never throws.
 */
export function parseChef(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  void problems;
  const text = source.text;
  if (!text.includes('mount')) return [];
  const mounts: MountEntry[] = [];
  for (const head of text.matchAll(RESOURCE)) {
    const indent = head[1]!;
    const nameAt = head.index + head[0].indexOf('mount') + 'mount'.length;
    const name = readValue(text, skipSpaces(text, nameAt));
    const bodyStart = head.index + head[0].length;
    const endMatch = new RegExp(`\\n${indent}end\\b`, 'g');
    endMatch.lastIndex = bodyStart;
    const close = endMatch.exec(text);
    const bodyEnd = close ? close.index : text.length;
    const properties = new Map<string, Value>();
    for (const line of text.slice(bodyStart, bodyEnd).matchAll(PROPERTY)) {
      const at = bodyStart + line.index + line[0].length;
      const value = readValue(text, at);
      if (value) properties.set(line[1]!, value);
    }
    const entry = resourceMount(text, uri, name, properties, {
      start: head.index + head[1]!.length,
      end: close ? close.index + close[0].length : text.length,
    });
    if (entry) mounts.push(entry);
  }
  return mounts;
}

/** `mount <name> do` at a line start (its indentation captured), not `chef_mount`, not `mount_point`. */
const RESOURCE = /^([ \t]*)mount[ \t(]+[^\n]*?[ \t)]do[ \t]*(?:\|[^|\n]*\|)?[ \t]*$/gm;
/** A property line: its name, then the value (optionally in parentheses). */
const PROPERTY = /^[ \t]*(device|fstype|options|mount_point|dump|pass|action)[ \t]*\(?[ \t]*/gm;

interface Value {
  /** The value as Ruby reads it, for a literal string; undefined otherwise. */
  readonly text?: string;
  /** The strings of an array literal (`%w(...)`, `['a', "b"]`), each with where its characters start. */
  readonly items?: readonly { readonly text?: string; readonly start: number; readonly end: number }[];
  /** Symbols (`:mount`, `[:mount, :enable]`). */
  readonly symbols?: readonly string[];
  readonly start: number;
  readonly end: number;
}

function skipSpaces(text: string, i: number): number {
  while (text[i] === ' ' || text[i] === '\t' || text[i] === '(') i++;
  return i;
}

/** A Ruby string at `i`: its characters, unless it has escapes or `#{}` (then unknown). */
function readString(text: string, i: number): { text?: string; start: number; end: number; next: number } | undefined {
  const q = text[i];
  if (q !== "'" && q !== '"') return undefined;
  let j = i + 1;
  let escaped = false;
  while (j < text.length && text[j] !== q && text[j] !== '\n') {
    if (text[j] === '\\') {
      escaped = true;
      j++;
    }
    j++;
  }
  const body = text.slice(i + 1, j);
  const literal = !escaped && !(q === '"' && body.includes('#{'));
  return { ...(literal ? { text: body } : {}), start: i + 1, end: j, next: j + 1 };
}

function readValue(text: string, i: number): Value | undefined {
  const ch = text[i];
  if (ch === undefined) return undefined;
  const string = readString(text, i);
  if (string)
    return { ...(string.text !== undefined ? { text: string.text } : {}), start: string.start, end: string.end };
  // %w(rw hard vers=3), %w[...], %W{...}: words split on blanks.
  const words = /^%[wW]([([{<])/.exec(text.slice(i, i + 3));
  if (words) {
    const close = { '(': ')', '[': ']', '{': '}', '<': '>' }[words[1]!]!;
    const end = text.indexOf(close, i + 3);
    const last = end < 0 ? text.length : end;
    const items: { text?: string; start: number; end: number }[] = [];
    for (const w of text.slice(i + 3, last).matchAll(/\S+/g)) {
      const start = i + 3 + w.index;
      items.push({ ...(w[0].includes('#{') ? {} : { text: w[0] }), start, end: start + w[0].length });
    }
    return { items, start: i, end: last + 1 };
  }
  if (ch === '[') {
    const items: { text?: string; start: number; end: number }[] = [];
    const symbols: string[] = [];
    let j = i + 1;
    while (j < text.length && text[j] !== ']') {
      const s = readString(text, j);
      if (s) {
        items.push({ ...(s.text !== undefined ? { text: s.text } : {}), start: s.start, end: s.end });
        j = s.next;
        continue;
      }
      const symbol = /^:(\w+)/.exec(text.slice(j, j + 40));
      if (symbol) {
        symbols.push(symbol[1]!);
        j += symbol[0].length;
        continue;
      }
      if (text[j] === '\n' && !/^\s*[\],'"%:]/.test(text.slice(j + 1, j + 200))) break;
      // Anything else (a variable, a method call) is an unknown item.
      if (!/[\s,]/.test(text[j]!)) {
        const other = /^[^\s,\]]+/.exec(text.slice(j))![0];
        items.push({ start: j, end: j + other.length });
        j += other.length;
        continue;
      }
      j++;
    }
    return { items, symbols, start: i, end: Math.min(j + 1, text.length) };
  }
  const symbol = /^:(\w+)/.exec(text.slice(i, i + 40));
  if (symbol) return { symbols: [symbol[1]!], start: i, end: i + symbol[0].length };
  const bare = /^[^\s#]+/.exec(text.slice(i, i + 200));
  if (!bare) return undefined;
  const word = bare[0].replace(/\)$/, '');
  return { ...(/^\d+$/.test(word) ? { text: word } : {}), start: i, end: i + word.length };
}

const MOUNTING_ACTIONS = new Set(['mount', 'enable', 'remount']);

function resourceMount(
  text: string,
  uri: string,
  name: Value | undefined,
  properties: ReadonlyMap<string, Value>,
  span: Span,
): MountEntry | undefined {
  const device = properties.get('device');
  if (!device) return undefined;
  const actionValue = properties.get('action');
  const actions = actionValue?.symbols ?? (actionValue ? [] : ['mount']);
  if (actionValue && actions.length > 0 && !actions.some((a) => MOUNTING_ACTIONS.has(a))) return undefined;
  const path = properties.get('mount_point') ?? name;
  const fstype = properties.get('fstype');
  const optionsValue = properties.get('options');
  const options: MountOption[] = [];
  let optionsSpan: Span | undefined;
  let unknownOptions = false;
  if (optionsValue?.text !== undefined) {
    const shape = readOptionText(optionsValue.text, optionsValue.start);
    options.push(...shape.options);
    optionsSpan = shape.body;
  } else if (optionsValue?.items) {
    for (const item of optionsValue.items) {
      if (item.text === undefined) {
        const raw = text.slice(item.start, item.end);
        options.push({ name: raw, span: item, nameSpan: item, templated: true });
        continue;
      }
      options.push(...readOptionText(item.text, item.start).options);
    }
    if (options.length > 0) optionsSpan = { start: options[0]!.span.start, end: options[options.length - 1]!.span.end };
  } else if (optionsValue) unknownOptions = true;
  const at = (v: Value): Span => ({ start: v.start, end: v.end });
  const deviceText = device.text;
  const parts = deviceText !== undefined ? splitNfsSource(deviceText) : undefined;
  const templated =
    unknownOptions ||
    [deviceText, path?.text, fstype?.text].some((t) => t === undefined || isTemplated(t)) ||
    options.some((o) => o.templated);
  // No options: a new `options '...'` line after the device's, at its indentation.
  const deviceLineStart = text.lastIndexOf('\n', device.start - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(deviceLineStart))![0];
  const deviceLineEnd = text.indexOf('\n', device.end);
  const anchor = deviceLineEnd < 0 ? text.length : deviceLineEnd;
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const dump = properties.get('dump');
  const pass = properties.get('pass');
  return {
    uri,
    origin: 'chef',
    host: 'chef',
    ...(deviceText !== undefined ? { source: deviceText } : {}),
    sourceSpan: at(device),
    ...(parts ? literalParts(parts) : {}),
    ...(path?.text !== undefined
      ? { mountPoint: path.text, mountPointSpan: at(path), mountPointDecoded: path.text }
      : {}),
    ...(fstype?.text !== undefined ? { fsType: fstype.text, fsTypeSpan: at(fstype) } : {}),
    options: unknownOptions
      ? [
          {
            name: text.slice(optionsValue!.start, optionsValue!.end),
            span: at(optionsValue!),
            nameSpan: at(optionsValue!),
            templated: true,
          },
        ]
      : options,
    ...(optionsSpan
      ? { optionsSpan }
      : unknownOptions
        ? { optionsSpan: at(optionsValue!) }
        : {
            optionsSpan: { start: anchor, end: anchor },
            optionsInsertion: { before: `${eol}${indent}options '`, after: "'" },
          }),
    // fstype defaults to "auto": NFS only when it says so, or no type and an NFS-looking device.
    isNfs:
      isNfsType(fstype?.text) || (fstype === undefined && deviceText !== undefined && looksLikeNfsSource(deviceText)),
    span,
    ...(templated ? { templated: true } : {}),
    ...(actions.includes('enable') ? { persistedIn: 'fstab' as const } : {}),
    ...(dump?.text !== undefined ? { dump: dump.text, dumpSpan: at(dump) } : {}),
    ...(pass?.text !== undefined ? { fsckPass: pass.text, fsckPassSpan: at(pass) } : {}),
  };
}
