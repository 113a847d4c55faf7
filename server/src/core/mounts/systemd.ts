import { isTemplateDirectiveLine } from '../text/templateLines';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { MALFORMED_CODE } from './fstab';
import type { MountEntry } from './model';
import { isNfsType, isTemplated, looksLikeNfsSource, literalParts, splitNfsSource, splitOptions } from './optionText';

interface Setting {
  readonly value: string;
  readonly valueSpan: Span;
  readonly lineSpan: Span;
}

/**
 * A systemd `.mount` unit: `What=`, `Where=`, `Type=`, `Options=` of its `[Mount]` section
 * (systemd.mount(5)). A later assignment of the same key wins, as in systemd. Never throws.
 */
export function parseSystemdMount(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  let section = '';
  let sectionSpan: Span | undefined;
  const settings = new Map<string, Setting>();
  let lastLineEnd = 0;
  for (let line = 0; line < source.lineCount; line++) {
    const text = source.lineText(line);
    const start = source.lineStart(line);
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';') || isTemplateDirectiveLine(trimmed))
      continue;
    if (trimmed.startsWith('[')) {
      section = trimmed.replace(/^\[|\][\s\S]*$/g, '');
      if (section === 'Mount') sectionSpan = { start: start + text.indexOf('['), end: start + text.trimEnd().length };
      continue;
    }
    if (section !== 'Mount') continue;
    const eq = text.indexOf('=');
    if (eq < 0) continue;
    const key = text.slice(0, eq).trim();
    const rawValue = text.slice(eq + 1);
    const lead = rawValue.length - rawValue.trimStart().length;
    const value = rawValue.trim();
    const valueStart = start + eq + 1 + lead;
    settings.set(key, {
      value,
      valueSpan: { start: valueStart, end: valueStart + value.length },
      lineSpan: { start, end: start + text.length },
    });
    lastLineEnd = start + text.length;
  }
  if (!sectionSpan) return [];
  const what = settings.get('What');
  const where = settings.get('Where');
  const type = settings.get('Type');
  const opts = settings.get('Options');
  const span = { start: sectionSpan.start, end: Math.max(sectionSpan.end, lastLineEnd) };
  for (const [key, setting] of [
    ['What', what],
    ['Where', where],
  ] as const) {
    if (!setting || setting.value === '') {
      problems.push({
        code: MALFORMED_CODE,
        span: sectionSpan,
        message: `This mount unit has no \`${key}=\`: systemd refuses to load a \`.mount\` unit without it.`,
      });
    }
  }
  if (!what || what.value === '') return [];
  const parts = splitNfsSource(what.value);
  const fsType = type?.value;
  const nfs = isNfsType(fsType) || (fsType === undefined && looksLikeNfsSource(what.value));
  const options = opts
    ? splitOptions(source.text.slice(opts.valueSpan.start, opts.valueSpan.end), opts.valueSpan.start)
    : [];
  // Where to put `Options=` when the unit has none: after the Type= (or What=) line.
  const anchor = type ?? what;
  const templated = [what, where, type, opts].some((s) => s !== undefined && isTemplated(s.value));
  return [
    {
      uri,
      origin: 'systemd',
      host: 'systemd',
      source: what.value,
      sourceSpan: what.valueSpan,
      ...(parts ? literalParts(parts) : {}),
      ...(where ? { mountPoint: where.value, mountPointSpan: where.valueSpan, mountPointDecoded: where.value } : {}),
      ...(type ? { fsType: type.value, fsTypeSpan: type.valueSpan } : {}),
      options,
      ...(opts
        ? { optionsSpan: opts.valueSpan }
        : {
            optionsSpan: { start: anchor.lineSpan.end, end: anchor.lineSpan.end },
            optionsInsertion: { before: `${source.eol}Options=`, after: '' },
          }),
      isNfs: nfs,
      span,
      ...(templated ? { templated: true } : {}),
    },
  ];
}
