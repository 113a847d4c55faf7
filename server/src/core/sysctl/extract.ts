import { literalWord, type ShellWord } from '../text/shell';
import type { SourceText } from '../text/sourceText';
import type { FileKind } from '../fileKind';
import type { ParseProblem } from '../diagnostics';
import { isSysctlComment, parseModprobeLine, parseSysctlLine, type Sink } from './lines';
import type { KernelSetting } from './model';
import { contiguousPiece, mappedPiece } from './piece';
import { isModprobeFilePath, isSysctlFilePath, scanShell, scanWords } from './shell';
import { extractAnsibleKernel } from './ansible';
import { rstBlocks } from '../text/rst';

export interface KernelSettingExtraction {
  readonly settings: readonly KernelSetting[];
  readonly problems: readonly ParseProblem[];
}

/**
 * Finds kernel settings in sysctl files, modprobe.d, shell scripts and tuned profiles. A reader bug
 * throws: parseFile reports it as ANF003 on the file instead of a silently clean file.
 */
export function extractKernelSettings(source: SourceText, uri: string, kind: FileKind): KernelSettingExtraction {
  const sink: Sink = { uri, settings: [], problems: [] };
  switch (kind) {
    case 'sysctl':
      extractSysctlFile(source, sink);
      break;
    case 'modprobe':
      extractModprobeFile(source, sink);
      break;
    case 'tuned':
    case 'saptune':
      // saptune notes keep kernel parameters in `[sysctl]` too; `[version]`, `[reminder]`,
      // `[vm]`, `[block]`... are other sections, read by saptune itself.
      extractTunedProfile(source, sink);
      break;
    case 'ansible':
      extractAnsibleKernel(source, sink);
      break;
    case 'rst':
      extractRst(source, sink);
      break;
    case 'shell':
      scanShell(source.text, 0, source.text.length, sink);
      break;
    case 'markdown':
      extractMarkdown(source, sink);
      break;
    case 'cloud-init':
      extractCloudInit(source, sink);
      break;
    default:
      break;
  }
  return { settings: sink.settings, problems: sink.problems };
}

function linePiece(source: SourceText, line: number) {
  return contiguousPiece(source.lineText(line), source.lineStart(line));
}

export function extractSysctlFile(source: SourceText, sink: Sink, from = 0, to = source.lineCount): void {
  for (let line = from; line < to; line++) parseSysctlLine(linePiece(source, line), sink, 'sysctl', true);
}

/** modprobe.d joins a line ending in `\` with the next one. */
export function extractModprobeFile(source: SourceText, sink: Sink, from = 0, to = source.lineCount): void {
  let line = from;
  while (line < to) {
    let text = '';
    const offsets: number[] = [];
    let end = source.lineStart(line);
    for (;;) {
      const lineText = source.lineText(line);
      const start = source.lineStart(line);
      const continued = /\\\s*$/.test(lineText) && line + 1 < to;
      const kept = continued ? lineText.replace(/\\\s*$/, '') : lineText;
      if (text.length > 0) {
        text += ' ';
        offsets.push(end);
      }
      for (let i = 0; i < kept.length; i++) offsets.push(start + i);
      text += kept;
      end = start + kept.length;
      line++;
      if (!continued) break;
    }
    parseModprobeLine(mappedPiece(text, offsets, end), sink, true);
  }
}

/** tuned.conf: only the `[sysctl]` section sets kernel parameters. */
function extractTunedProfile(source: SourceText, sink: Sink): void {
  let inSysctl = false;
  for (let line = 0; line < source.lineCount; line++) {
    const text = source.lineText(line);
    const section = /^\s*\[([^\]]*)\]\s*$/.exec(text);
    if (section) {
      inSysctl = section[1]!.trim() === 'sysctl';
      continue;
    }
    if (inSysctl) parseSysctlLine(linePiece(source, line), sink, 'tuned', true);
  }
}

const SHELL_FENCES = new Set([
  'sh',
  'bash',
  'shell',
  'zsh',
  'ksh',
  'console',
  'shell-session',
  'sh-session',
  'shellsession',
  'terminal',
  'shellscript',
]);
const PROMPT_FENCES = new Set(['console', 'shell-session', 'sh-session', 'shellsession', 'terminal']);
const CONFIG_FENCES = new Set([
  '',
  'sysctl',
  'conf',
  'ini',
  'cfg',
  'properties',
  'text',
  'txt',
  'plaintext',
  'modprobe',
]);
const SYSCTL_ASSIGNMENT = /^\s*(?:-\s*)?[A-Za-z0-9_.*/-]+\s*=\s*\S/;
const SYSCTL_NAMESPACE = /^\s*(?:-\s*)?(?:net|vm|sunrpc|fs|kernel)[./]/;
const MODPROBE_OPTIONS = /^\s*options\s+\S/;

/** A fenced block reads as a sysctl file when every line is a comment or a `net.`/`vm.`/... assignment. */
function blockShape(source: SourceText, from: number, to: number): 'sysctl' | 'modprobe' | undefined {
  let sysctl = 0;
  let modprobe = 0;
  for (let line = from; line < to; line++) {
    const text = source.lineText(line);
    if (isSysctlComment(text)) continue;
    if (MODPROBE_OPTIONS.test(text)) modprobe++;
    else if (SYSCTL_ASSIGNMENT.test(text) && SYSCTL_NAMESPACE.test(text)) sysctl++;
    else return undefined;
  }
  if (sysctl > 0 && modprobe === 0) return 'sysctl';
  if (modprobe > 0 && sysctl === 0) return 'modprobe';
  return undefined;
}

/** Markdown: fenced shell blocks are scripts; fenced blocks that look like sysctl.conf or modprobe.d are files. */
function extractMarkdown(source: SourceText, sink: Sink): void {
  let line = 0;
  while (line < source.lineCount) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^\s`{]*)/.exec(source.lineText(line));
    if (!open) {
      line++;
      continue;
    }
    const fence = open[1]!;
    const info = open[2]!.toLowerCase();
    const bodyFrom = line + 1;
    let bodyTo = bodyFrom;
    while (bodyTo < source.lineCount) {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(source.lineText(bodyTo));
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) break;
      bodyTo++;
    }
    if (bodyTo > bodyFrom) {
      const start = source.lineStart(bodyFrom);
      const end = source.lineEnd(bodyTo - 1);
      if (SHELL_FENCES.has(info)) scanShell(source.text, start, end, sink, PROMPT_FENCES.has(info));
      else if (CONFIG_FENCES.has(info)) {
        const shape = blockShape(source, bodyFrom, bodyTo);
        if (shape === 'sysctl') extractSysctlFile(source, sink, bodyFrom, bodyTo);
        else if (shape === 'modprobe') extractModprobeFile(source, sink, bodyFrom, bodyTo);
      }
    }
    line = bodyTo + 1;
  }
}

/** reStructuredText: literal blocks are scripts (shell languages) or files (sysctl/modprobe shapes). */
function extractRst(source: SourceText, sink: Sink): void {
  for (const block of rstBlocks(source)) {
    const shape =
      CONFIG_FENCES.has(block.language) || block.language === 'none'
        ? blockShape(source, block.from, block.to)
        : undefined;
    if (shape === 'sysctl') extractSysctlFile(source, sink, block.from, block.to);
    else if (shape === 'modprobe') extractModprobeFile(source, sink, block.from, block.to);
    else if (SHELL_FENCES.has(block.language) || block.language === '' || block.language === 'none') {
      scanShell(source.text, source.lineStart(block.from), source.lineEnd(block.to - 1), sink, true);
    }
  }
}

function indentOf(text: string): number {
  return /^[ ]*/.exec(text)![0].length;
}

/** The lines of a YAML block scalar that starts after `line`: those indented deeper than `parentIndent`. */
function blockScalarEnd(source: SourceText, line: number, parentIndent: number): number {
  let end = line + 1;
  while (end < source.lineCount) {
    const text = source.lineText(end);
    if (text.trim() !== '' && indentOf(text) <= parentIndent) break;
    end++;
  }
  return end;
}

/** `[sysctl, -w, "net.ipv4.tcp_sack=1"]`: the elements of a YAML flow sequence in `text[from, to)` (one line), unquoted. */
function flowWords(text: string, from: number, to: number): ShellWord[] {
  const words: ShellWord[] = [];
  const open = text.indexOf('[', from);
  const close = to > from ? text.lastIndexOf(']', to - 1) : -1;
  if (open < 0 || open >= to || close < open) return words;
  let i = open + 1;
  while (i < close) {
    while (i < close && (text[i] === ' ' || text[i] === ',')) i++;
    if (i >= close) break;
    const quote = text[i] === '"' || text[i] === "'" ? text[i] : undefined;
    const wordStart = i;
    let valueStart = i;
    let valueEnd: number;
    if (quote) {
      valueStart = ++i;
      while (i < close && text[i] !== quote) i++;
      valueEnd = i;
      i++;
    } else {
      while (i < close && text[i] !== ',') i++;
      valueEnd = i;
      while (valueEnd > valueStart && text[valueEnd - 1] === ' ') valueEnd--;
    }
    words.push(literalWord(text, { start: wordStart, end: Math.min(i, close) }, valueStart, valueEnd));
  }
  return words;
}

/** cloud-init: `runcmd`/`bootcmd` items are shell commands; `write_files` items may write sysctl.d or modprobe.d files. */
function extractCloudInit(source: SourceText, sink: Sink): void {
  let section = '';
  let item: { path?: string; content?: { from: number; to: number } } | undefined;
  const flushItem = () => {
    if (item?.path && item.content) {
      if (isSysctlFilePath(item.path)) extractSysctlFile(source, sink, item.content.from, item.content.to);
      else if (isModprobeFilePath(item.path)) extractModprobeFile(source, sink, item.content.from, item.content.to);
    }
    item = undefined;
  };
  let line = 0;
  while (line < source.lineCount) {
    const text = source.lineText(line);
    const top = /^([A-Za-z_][A-Za-z0-9_]*)\s*:/.exec(text);
    if (top) {
      flushItem();
      section = top[1]!;
      line++;
      continue;
    }
    const lineStart = source.lineStart(line);
    if (section === 'runcmd' || section === 'bootcmd') {
      const entry = /^(\s*)-\s+(.*)$/.exec(text);
      if (entry) {
        const restFrom = text.length - entry[2]!.length;
        const rest = entry[2]!.trimEnd();
        if (rest.startsWith('[')) scanWords(flowWords(source.text, lineStart, lineStart + text.length), sink);
        else if (/^[|>][+-]?$/.test(rest)) {
          const end = blockScalarEnd(source, line, indentOf(text));
          if (end > line + 1) scanShell(source.text, source.lineStart(line + 1), source.lineEnd(end - 1), sink);
          line = end;
          continue;
        } else if (/^(["']).*\1$/.test(rest))
          scanShell(source.text, lineStart + restFrom + 1, lineStart + restFrom + rest.length - 1, sink);
        else scanShell(source.text, lineStart + restFrom, lineStart + restFrom + rest.length, sink);
      }
    } else if (section === 'write_files') {
      const entry = /^(\s*)-\s+(.*)$/.exec(text);
      const body = entry ? entry[2]! : text.trim();
      if (entry) flushItem();
      if (entry || item) item ??= {};
      const path = /^path\s*:\s*["']?([^"'\s]+)/.exec(body);
      if (path) item!.path = path[1]!;
      const content = /^content\s*:\s*[|>][+-]?\s*$/.exec(body);
      if (content) {
        const keyIndent = entry ? entry[1]!.length + 2 : indentOf(text);
        const end = blockScalarEnd(source, line, keyIndent);
        item!.content = { from: line + 1, to: end };
        line = end;
        continue;
      }
    }
    line++;
  }
  flushItem();
}
