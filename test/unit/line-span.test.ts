/**
 * An fstab file's lines keep their spans as columns from one anchor per line (mounts/lineSpan.ts):
 * an edit above a kept mount moves it with one write (workspace/lineReuse.ts `shiftMount`).
 */
import { describe, expect, it } from 'vitest';
import { Workspace, resolveConfig } from '../../server/src/core';
import { parseFstabLine } from '../../server/src/core/mounts/fstab';
import { LineSpan } from '../../server/src/core/mounts/lineSpan';

const URI = 'file:///host/etc/fstab';
const LINE = '10.0.0.4:/hpc-scratch /mnt/scratch nfs rw,hard,vers=4.1,nconnect=8 0 0';

describe('anchored fstab spans', () => {
  it('a plain line of an fstab file: every span on one anchor, at the line`s offsets', () => {
    const mount = parseFstabLine(LINE, 100, URI, [], 'fstab', true)!;
    const spans = [
      mount.span,
      mount.sourceSpan,
      mount.mountPointSpan,
      mount.fsTypeSpan,
      mount.optionsSpan,
      mount.dumpSpan,
      mount.fsckPassSpan,
      ...mount.options.flatMap((o) => [o.span, o.nameSpan, o.valueSpan]),
    ].filter((s) => s !== undefined);
    expect(spans.every((s) => s instanceof LineSpan && s.anchor === (mount.span as LineSpan).anchor)).toBe(true);
    const text = (s: { start: number; end: number }) => LINE.slice(s.start - 100, s.end - 100);
    expect([text(mount.sourceSpan!), text(mount.mountPointSpan!), text(mount.optionsSpan!)]).toEqual([
      '10.0.0.4:/hpc-scratch',
      '/mnt/scratch',
      'rw,hard,vers=4.1,nconnect=8',
    ]);
    expect(mount.options.map((o) => [text(o.nameSpan), o.valueSpan ? text(o.valueSpan) : undefined])).toEqual([
      ['rw', undefined],
      ['hard', undefined],
      ['vers', '4.1'],
      ['nconnect', '8'],
    ]);
    // Moving the anchor moves them all; JSON writes plain offsets.
    (mount.span as LineSpan).anchor.start += 7;
    expect(JSON.stringify(mount.options[2]!.valueSpan)).toBe(
      `{"start":${100 + 7 + LINE.indexOf('4.1')},"end":${100 + 7 + LINE.indexOf('4.1') + 3}}`,
    );
  });

  it('lines with a placeholder or a quote, and fstab lines read elsewhere (a script), keep plain spans', () => {
    expect(parseFstabLine('10.0.0.4:/a /a nfs {{ opts }} 0 0', 0, URI, [], 'fstab', true)!.span).not.toBeInstanceOf(
      LineSpan,
    );
    expect(parseFstabLine('10.0.0.4:/a /a nfs "rw,hard" 0 0', 0, URI, [], 'fstab', true)!.span).not.toBeInstanceOf(
      LineSpan,
    );
    expect(parseFstabLine(LINE, 0, URI, [], 'shell')!.span).not.toBeInstanceOf(LineSpan);
  });

  it('a mount below an edit keeps its object and moves with its anchor', () => {
    const workspace = new Workspace(resolveConfig());
    const before = `${LINE}\n# anf: workload=hpc\n${LINE.replaceAll('scratch', 'home')}\n`;
    const first = workspace.set(URI, before, 1, 'fstab');
    const kept = first.mounts[1]!;
    const after = `${LINE.replace('rw,', 'rw,noatime,')}\n# anf: workload=hpc\n${LINE.replaceAll('scratch', 'home')}\n`;
    const second = workspace.set(URI, after, 2, 'fstab');
    expect(second.lineEdit).toBeDefined();
    expect(second.mounts[1]).toBe(kept);
    expect(after.slice(kept.mountPointSpan!.start, kept.mountPointSpan!.end)).toBe('/mnt/home');
    expect(after.slice(kept.options[3]!.span.start, kept.options[3]!.span.end)).toBe('nconnect=8');
    // Its annotation, on the comment line above it, is a span of its own: moved too.
    expect(after.slice(kept.annotationSpan!.start, kept.annotationSpan!.end)).toContain('workload=hpc');
  });

  it('the test setup compares a LineSpan with a plain span by its offsets', () => {
    const span = new LineSpan({ start: 10 }, 2, 5);
    expect(span).toEqual({ start: 12, end: 15 });
    expect(span).not.toEqual({ start: 12, end: 16 });
    expect({ start: 12, end: 15, extra: 1 }).not.toEqual(span);
  });
});
