import type { Span } from '../text/sourceText';
import type { MountOption } from './model';
import { type LineAnchor, LineSpan } from './lineSpan';

/**
 * Template placeholders real repos put in mount lines: Jinja (`{{ var }}`, `{% %}`), shell and
 * Terraform (`${var}`, `$VAR`, `$(cmd)`, backticks), ERB (`<%= %>`). Linear: no nested quantifiers.
 */
const TEMPLATE = /\{\{|\{%|\$\{|\$\(|\$[A-Za-z_]|`|<%/;
/** A character every placeholder starts with: most words have none, and a class scan is cheaper. */
const TEMPLATE_START = /[{$`<]/;
/** The same, or a quote (options with quotes are never judged). */
const TEMPLATE_OR_QUOTE_START = /[{$`<"']/;

export function isTemplated(text: string): boolean {
  return TEMPLATE_START.test(text) && TEMPLATE.test(text);
}

/** False when `text` holds no character a placeholder or a quote starts with: no part of it is templated. */
export function mayBeTemplated(text: string): boolean {
  return TEMPLATE_OR_QUOTE_START.test(text);
}

const QUOTE = (ch: string | undefined): boolean => ch === '"' || ch === "'";
/** Blanks around an option, including the line breaks of a folded YAML scalar (`opts: >-`). */
const BLANK = (ch: string | undefined): boolean => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r';

/**
 * Splits an option list (`rw,hard,rsize=262144`) written at `base` in the document into options
 * with exact spans. Commas inside `{{ }}`, `${ }` and `$( )` do not split; quotes around the list or
 * around single options (`-o "rw,hard"`, `rw,"nconnect=8"`) are left out of the spans; a part that
 * still holds a quote or a placeholder is marked templated and never judged. `plain` says the caller
 * found no placeholder or quote character in `raw` (`mayBeTemplated`), so no part is templated.
 * With `anchor` (only with `plain`), `base` is a column from it and the spans are `LineSpan`s on it
 * (fstab.ts `parseFstabLine`). Never throws.
 */
export function splitOptions(raw: string, base: number, plain = false, anchor?: LineAnchor): MountOption[] {
  // Nearly every fstab line: no placeholder or quote (`plain`) and no bracket, so every comma splits.
  if (plain && !raw.includes('{') && !raw.includes('(')) return splitPlainOptions(raw, base, anchor);
  const options: MountOption[] = [];
  let depth = 0;
  let partStart = 0;
  // Jinja control blocks (`{% if a %}x,y{% else %}z{% endif %}`): the open `if`/`for` blocks, each
  // true once an `else`/`elif` was seen. An option in an `else`/`elif` branch is an alternative to
  // the first branch, not more of the same list: it is marked templated (unknown, never judged).
  const blocks: boolean[] = [];
  let partAlternative = false;
  const alternative = (): boolean => blocks.includes(true);
  const flush = (end: number) => {
    let start = partStart;
    let stop = end;
    while (start < stop && (BLANK(raw[start]) || QUOTE(raw[start]))) start++;
    while (stop > start && (BLANK(raw[stop - 1]) || QUOTE(raw[stop - 1]))) stop--;
    if (stop <= start) return;
    const option = plain
      ? makePlainOption(raw, start, stop, base, anchor)
      : makeOption(raw.slice(start, stop), base + start);
    options.push(partAlternative || alternative() ? { ...option, templated: true } : option);
  };
  if (!raw.includes('{') && !raw.includes('(')) {
    // No placeholder can hold a comma: every comma splits (most option lists).
    for (let comma = raw.indexOf(','); comma >= 0; comma = raw.indexOf(',', partStart)) {
      flush(comma);
      partStart = comma + 1;
    }
    flush(raw.length);
    return options;
  }
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i];
    if (ch === '{' && raw[i + 1] === '%' && depth === 0) {
      const close = raw.indexOf('%}', i + 2);
      if (close < 0) break; // an unclosed tag: the rest is one templated part
      const keyword = /^[-+]?\s*(\w+)/.exec(raw.slice(i + 2, close))?.[1];
      // A tag inside a value (`nconnect={% if a %}8{% else %}4{% endif %}`) keeps its option whole
      // (templated); between options it ends the one before it, like a comma.
      const insideValue = /=\s*$/.test(raw.slice(partStart, i)) || raw.slice(partStart, i).includes('{%');
      if (!insideValue) flush(i);
      if (keyword === 'if' || keyword === 'for') blocks.push(false);
      else if ((keyword === 'else' || keyword === 'elif') && blocks.length > 0) blocks[blocks.length - 1] = true;
      else if (keyword === 'endif' || keyword === 'endfor') blocks.pop();
      i = close + 1;
      if (!insideValue) {
        partStart = i + 1;
        partAlternative = alternative();
      }
    } else if ((ch === '{' || ch === '(') && i > 0 && (raw[i - 1] === '$' || raw[i - 1] === '{')) depth++;
    else if (ch === '{' && raw[i + 1] === '{') {
      depth++;
      i++;
    } else if ((ch === '}' || ch === ')') && depth > 0) {
      depth--;
      if (ch === '}' && raw[i + 1] === '}') i++;
    } else if (ch === ',' && depth === 0) {
      flush(i);
      partStart = i + 1;
      partAlternative = alternative();
    }
  }
  flush(raw.length);
  return options;
}

/** splitOptions of a plain list without brackets: split at every comma, blanks trimmed (no closure per part). */
function splitPlainOptions(raw: string, base: number, anchor: LineAnchor | undefined): MountOption[] {
  const options: MountOption[] = [];
  let partStart = 0;
  for (;;) {
    const comma = raw.indexOf(',', partStart);
    const end = comma < 0 ? raw.length : comma;
    let start = partStart;
    let stop = end;
    while (start < stop && BLANK(raw[start])) start++;
    while (stop > start && BLANK(raw[stop - 1])) stop--;
    if (stop > start) options.push(makePlainOption(raw, start, stop, base, anchor));
    if (comma < 0) return options;
    partStart = comma + 1;
  }
}

function makeOption(text: string, start: number): MountOption {
  const templated = TEMPLATE_OR_QUOTE_START.test(text) && (TEMPLATE.test(text) || /["']/.test(text));
  const eq = text.indexOf('=');
  const span: Span = { start, end: start + text.length };
  if (eq < 0 || (templated && text.indexOf('{') >= 0 && text.indexOf('{') < eq)) {
    return { name: text, span, nameSpan: span, templated };
  }
  return {
    name: text.slice(0, eq),
    value: text.slice(eq + 1),
    span,
    nameSpan: { start, end: start + eq },
    valueSpan: { start: start + eq + 1, end: span.end },
    templated,
  };
}

/**
 * makeOption for `raw[from, to)` when no placeholder or quote can be in it: the same option, cut
 * from `raw` directly (no intermediate copy of the whole option text).
 */
function makePlainOption(
  raw: string,
  from: number,
  to: number,
  base: number,
  anchor: LineAnchor | undefined,
): MountOption {
  const start = base + from;
  const span: Span = anchor ? new LineSpan(anchor, start, base + to) : { start, end: base + to };
  const eq = raw.indexOf('=', from);
  if (eq < 0 || eq >= to) return { name: raw.slice(from, to), span, nameSpan: span, templated: false };
  return {
    name: raw.slice(from, eq),
    value: raw.slice(eq + 1, to),
    span,
    nameSpan: anchor ? new LineSpan(anchor, start, base + eq) : { start, end: base + eq },
    valueSpan: anchor ? new LineSpan(anchor, base + eq + 1, base + to) : { start: base + eq + 1, end: span.end },
    templated: false,
  };
}

/** Decodes fstab's octal escapes (`\040` is a space). */
export function decodeOctalEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** Splits `server:/export` (also `[fe80::1]:/export`). */
export function splitNfsSource(source: string): { server: string; exportPath: string } | undefined {
  if (source.startsWith('[')) {
    const close = source.indexOf(']:');
    if (close < 0) return undefined;
    return { server: source.slice(1, close), exportPath: source.slice(close + 2) };
  }
  const colon = source.indexOf(':');
  if (colon <= 0 || source.startsWith('//')) return undefined;
  const exportPath = source.slice(colon + 1);
  if (exportPath.startsWith('//')) return undefined; // a URL, not an NFS source
  return { server: source.slice(0, colon), exportPath };
}

/** True for `server:/path` sources (what makes a bare `mount` pick NFS). */
export function looksLikeNfsSource(source: string): boolean {
  return partsLookLikeNfs(splitNfsSource(source));
}

/** `looksLikeNfsSource` for a source already split with `splitNfsSource`. */
export function partsLookLikeNfs(parts: { server: string; exportPath: string } | undefined): boolean {
  return (
    parts !== undefined &&
    parts.server.length > 0 &&
    !/[\s/]/.test(parts.server) &&
    (parts.exportPath.startsWith('/') || isTemplated(parts.exportPath))
  );
}

export function isNfsType(fsType: string | undefined): boolean {
  return fsType === 'nfs' || fsType === 'nfs4';
}

/** Server and export path, leaving out a part that is a template placeholder. */
export function literalParts(parts: { server: string; exportPath: string }): { server?: string; exportPath?: string } {
  return {
    ...(isTemplated(parts.server) ? {} : { server: parts.server }),
    ...(isTemplated(parts.exportPath) ? {} : { exportPath: parts.exportPath }),
  };
}
