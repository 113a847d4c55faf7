import { describe, expect, it } from 'vitest';
import { computeCompletions } from '../../server/src/core/features/completion';
import { parseFile } from '../../server/src/core/workspace/parseFile';

const URI = 'file:///repo/etc/modprobe.d/sunrpc.conf';

function completeAtEnd(text: string) {
  return computeCompletions(parseFile(URI, text), text.length);
}

describe('modprobe.d completion', () => {
  it('offers the module parameters after earlier key=value pairs', () => {
    const labels = completeAtEnd('options sunrpc udp_slot_table_entries=64 tcp_').map((c) => c.label);
    expect(labels).toContain('tcp_max_slot_table_entries');
  });

  it('offers values for a parameter', () => {
    const labels = completeAtEnd('options sunrpc tcp_max_slot_table_entries=').map((c) => c.label);
    expect(labels.length).toBeGreaterThan(0);
  });

  // The earlier pattern `(?:\S+=\S*\s+)*` let each `a=b=c=d` word split three ways: 14 such words
  // took 7.6 s per keystroke, 20 would take hours. The test's own timeout catches a relapse.
  it('a line of many `a=b=c=d` words is answered (no exponential backtracking)', () => {
    const line = `options sunrpc ${'a=b=c=d '.repeat(2_000)}!`;
    expect(completeAtEnd(line)).toEqual([]);
    expect(completeAtEnd(`options sunrpc ${'a=b=c=d '.repeat(2_000)}tcp_`).map((c) => c.label)).toContain(
      'tcp_max_slot_table_entries',
    );
  });
});
