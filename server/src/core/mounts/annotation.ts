import { closest, distance } from 'fastest-levenshtein';
import { isWorkloadKind, WORKLOAD_KINDS, type WorkloadKind } from '../facts';
import type { SourceText, Span } from '../text/sourceText';
import { type ParseProblem, unsafeFix } from '../diagnostics';

/**
 * The workload annotation: a comment that tells anf-lint which workload a mount serves when no
 * manifest volume says so.
 *
 *   # anf: workload=eda-tools
 *   10.10.1.4:/eda-tools  /tools  nfs  ro,hard,vers=3  0 0
 *
 *   mount -t nfs -o rw,hard,vers=3 10.10.1.4:/eda-scratch /scratch   # anf: workload=eda-scratch
 *
 * It applies to the mount on the same line (a trailing comment) or to the next mount when it sits
 * in the block of comment lines directly above it. `#`, `;`, `//` and `<!-- -->` comments work.
 */
export const ANNOTATION_CODE = 'ANF201';

const ANNOTATION = /(?:#|;|\/\/|<!--)\s*anf:([^\n]*)/;
// (?<!...) starts a key only at the start of a word: without it a long word with no `=` is
// retried from each of its characters (quadratic: hours on a 1 MB comment line). Same matches.
const PAIR = /(?<![A-Za-z_-])([A-Za-z_-]+)\s*=\s*([^\s,]*)/g;
export const COMMENT_LINE = /^\s*(?:#|;|\/\/|<!--)/;
export const FENCE_LINE = /^\s*(?:```|~~~)/;

export interface Annotation {
  readonly workload?: WorkloadKind;
  readonly span: Span;
  readonly line: number;
}

/** Reads every `anf:` annotation of a document; bad ones become ANF201 problems. */
export function readAnnotations(
  source: SourceText,
  problems: ParseProblem[],
  lines?: { readonly from: number; readonly to: number },
): Map<number, Annotation> {
  const result = new Map<number, Annotation>();
  // `lines` (inclusive): only those lines, for re-reading the lines an edit touched (workspace/lineReuse.ts).
  const last = lines ? Math.min(lines.to, source.lineCount - 1) : source.lineCount - 1;
  // Only lines holding `anf:` can match: find them with indexOf instead of reading every line.
  for (let at = source.text.indexOf('anf:', lines ? source.lineStart(lines.from) : 0); at >= 0; ) {
    const line = source.positionAt(at).line;
    if (line > last) break;
    at = line + 1 < source.lineCount ? source.text.indexOf('anf:', source.lineStart(line + 1)) : -1;
    const text = source.lineText(line);
    const match = ANNOTATION.exec(text);
    if (!match) continue;
    const lineStart = source.lineStart(line);
    const commentStart = lineStart + match.index;
    const body = (match[1] ?? '').replace(/-->\s*$/, '');
    const bodyStart = commentStart + match[0].length - (match[1] ?? '').length;
    const span = { start: commentStart, end: lineStart + text.trimEnd().length };
    let workload: WorkloadKind | undefined;
    let sawPair = false;
    for (const pair of body.matchAll(PAIR)) {
      sawPair = true;
      const key = pair[1] ?? '';
      const value = pair[2] ?? '';
      const valueStart = bodyStart + (pair.index ?? 0) + pair[0].length - value.length;
      const valueSpan = { start: valueStart, end: valueStart + value.length };
      if (key !== 'workload') {
        const keySpan = { start: bodyStart + (pair.index ?? 0), end: bodyStart + (pair.index ?? 0) + key.length };
        problems.push({
          code: ANNOTATION_CODE,
          span: keySpan,
          message: `Unknown annotation key \`${key}\`: the \`# anf:\` annotation knows \`workload=<kind>\` only.`,
        });
        continue;
      }
      if (isWorkloadKind(value)) {
        workload = value;
        continue;
      }
      const suggestion = value ? closest(value, [...WORKLOAD_KINDS]) : undefined;
      const close =
        suggestion !== undefined && distance(value, suggestion) <= Math.max(2, Math.floor(value.length / 3));
      problems.push({
        code: ANNOTATION_CODE,
        span: value ? valueSpan : span,
        message: `Unknown workload \`${value}\` in the annotation${close ? `: did you mean \`${suggestion}\`?` : ''} Known workloads: ${WORKLOAD_KINDS.join(', ')}.`,
        ...(close && value
          ? { fixes: [unsafeFix(`Change to \`${suggestion}\``, [{ span: valueSpan, newText: suggestion }])] }
          : {}),
      });
    }
    if (!sawPair && body.trim() === '' && /(?:#|;|\/\/|<!--)anf:\s*$/.test(match[0])) {
      // `#anf:` alone, the marker touching the word: a commented-out YAML key (`#anf:` above
      // `#  homefs_size_tb: 4`), not an annotation. `# anf:` with a space still says nothing.
      continue;
    }
    if (!sawPair) {
      problems.push({
        code: ANNOTATION_CODE,
        span,
        message:
          'This `# anf:` annotation says nothing: write `# anf: workload=<kind>`, e.g. `# anf: workload=eda-tools`.',
      });
    }
    result.set(line, { ...(workload ? { workload } : {}), span, line });
  }
  return result;
}

/**
 * The annotation that applies to a mount spanning `firstLine..lastLine`: one on those lines, else
 * one in the comment block directly above (Markdown fences are looked through).
 */
export function annotationFor(
  source: SourceText,
  annotations: Map<number, Annotation>,
  firstLine: number,
  lastLine: number,
): Annotation | undefined {
  if (annotations.size === 0) return undefined;
  for (let line = firstLine; line <= lastLine; line++) {
    const found = annotations.get(line);
    if (found?.workload) return found;
  }
  for (let line = firstLine - 1; line >= 0; line--) {
    // Most mounts follow another mount: its first character settles it without slicing the line.
    if (!mayOpenComment(source.text.charCodeAt(source.lineStart(line)))) break;
    const text = source.lineText(line);
    if (!COMMENT_LINE.test(text) && !FENCE_LINE.test(text)) break;
    const found = annotations.get(line);
    if (found?.workload) return found;
  }
  return undefined;
}

/**
 * False when a line starting with this character (a UTF-16 code unit) can be neither a comment
 * nor a fence line: a printable ASCII character other than those that open one (`#`, `;`, `/`,
 * `<`, a backtick, `~`). Whitespace, other characters and the end of the text are left to
 * COMMENT_LINE and FENCE_LINE.
 */
function mayOpenComment(code: number): boolean {
  if (code <= SPACE || code > TILDE) return true; // not a fact: whitespace, control and non-ASCII characters
  return (
    code === HASH || code === SEMICOLON || code === SLASH || code === LESS_THAN || code === BACKTICK || code === TILDE
  );
}

// Character codes (not facts).
const SPACE = 0x20;
const HASH = 0x23;
const SLASH = 0x2f;
const SEMICOLON = 0x3b;
const LESS_THAN = 0x3c;
const BACKTICK = 0x60;
const TILDE = 0x7e;

/**
 * The line of offsets that mostly increase (a reader's mounts, in order): walks the line-start
 * table forward from the last answer instead of searching it from scratch for each offset, and
 * searches only when an offset is behind or far ahead.
 */
export class LineCursor {
  private line = 0;

  constructor(private readonly source: SourceText) {}

  lineOf(offset: number): number {
    const source = this.source;
    const target = Math.max(0, Math.min(offset, source.text.length));
    let line = this.line;
    if (source.lineStart(line) > target) return (this.line = source.positionAt(target).line);
    const last = source.lineCount - 1;
    for (let steps = 0; line < last && source.lineStart(line + 1) <= target; steps++) {
      if (steps === CURSOR_WALK) return (this.line = source.positionAt(target).line);
      line++;
    }
    return (this.line = line);
  }
}

/** Lines the cursor walks before it searches instead. */
const CURSOR_WALK = 64; // not a fact: a tuning bound

/**
 * Applies annotations to mounts the caller has just created and not shared yet: sets the two fields
 * on the mount itself (the same keys, in the same order, as a copy would have), without copying
 * every field of every annotated mount on every change.
 */
export function annotateNewMount<T extends { span: Span; annotatedWorkload?: WorkloadKind; annotationSpan?: Span }>(
  mount: T,
  source: SourceText,
  annotations: Map<number, Annotation>,
  fileWide?: Annotation,
  lines?: LineCursor,
): T {
  const first = lines ? lines.lineOf(mount.span.start) : source.positionAt(mount.span.start).line;
  const last = lines ? lines.lineOf(mount.span.end) : source.positionAt(mount.span.end).line;
  const annotation = annotationFor(source, annotations, first, last) ?? fileWide;
  if (!annotation?.workload) return mount;
  const writable = mount as { annotatedWorkload?: WorkloadKind; annotationSpan?: Span };
  writable.annotatedWorkload = annotation.workload;
  writable.annotationSpan = annotation.span;
  return mount;
}
