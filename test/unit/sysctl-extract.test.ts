import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SourceText } from '../../server/src/core/text/sourceText';
import { extractKernelSettings } from '../../server/src/core/sysctl/extract';
import type { FileKind } from '../../server/src/core/fileKind';
import { scanShell } from '../../server/src/core/sysctl/shell';
import { parseModprobeLine, parseSysctlLine, type Sink } from '../../server/src/core/sysctl/lines';
import { contiguousPiece } from '../../server/src/core/sysctl/piece';
import { cpuMillisSince, startCpu } from '../support/cpuTime';
import { propertyRuns } from '../support/propertyRuns';

function extract(text: string, kind: FileKind, uri = 'file:///repo/etc/sysctl.d/90-nfs.conf') {
  return extractKernelSettings(new SourceText(text), uri, kind);
}

/** The text each span of a setting covers, so expectations read like the input. */
function covered(text: string, kind: FileKind) {
  const { settings, problems } = extract(text, kind);
  return {
    settings: settings.map((s) => ({
      key: s.key,
      keyText: text.slice(s.keySpan.start, s.keySpan.end),
      value: s.value,
      valueText: text.slice(s.valueSpan.start, s.valueSpan.end),
      fields: (s.fields ?? []).map((f) => text.slice(f.span.start, f.span.end)),
      origin: s.origin,
      ignoreFailure: s.ignoreFailure,
      templated: s.templated,
      persistent: s.persistent,
    })),
    problems: problems.map((p) => ({ code: p.code, text: text.slice(p.span.start, p.span.end) })),
  };
}

describe('sysctl.conf and sysctl.d', () => {
  it('reads key = value, key=value and multi-value fields with exact spans', () => {
    const text =
      '# comment\n; also a comment\nnet.core.rmem_max = 16777216\nnet.ipv4.tcp_rmem=4096\t87380   16777216\n';
    const result = covered(text, 'sysctl');
    expect(result.problems).toEqual([]);
    expect(result.settings).toMatchObject([
      {
        key: 'net.core.rmem_max',
        keyText: 'net.core.rmem_max',
        value: '16777216',
        valueText: '16777216',
        fields: ['16777216'],
        origin: 'sysctl',
        persistent: true,
      },
      { key: 'net.ipv4.tcp_rmem', valueText: '4096\t87380   16777216', fields: ['4096', '87380', '16777216'] },
    ]);
  });

  it('normalizes `/` separators, swapping dots that are part of a name', () => {
    const result = covered(
      'net/ipv4/tcp_rmem = 4096 131072 16777216\nnet/ipv4/conf/eth0.100/rp_filter = 0\n',
      'sysctl',
    );
    expect(result.settings.map((s) => [s.key, s.keyText])).toEqual([
      ['net.ipv4.tcp_rmem', 'net/ipv4/tcp_rmem'],
      ['net.ipv4.conf.eth0/100.rp_filter', 'net/ipv4/conf/eth0.100/rp_filter'],
    ]);
  });

  it('reads `-key = value` as ignore-failure and keeps glob keys', () => {
    const result = covered('-net.ipv4.tcp_fack = 0\nnet.ipv4.conf.*.rp_filter = 2\n', 'sysctl');
    expect(result.settings).toMatchObject([
      { key: 'net.ipv4.tcp_fack', keyText: '-net.ipv4.tcp_fack', ignoreFailure: true },
      { key: 'net.ipv4.conf.*.rp_filter', ignoreFailure: false },
    ]);
  });

  it('marks templates and never judges them', () => {
    const result = covered('net.core.rmem_max = {{ rmem_max }}\nvm.swappiness = ${SWAPPINESS}\n', 'sysctl');
    expect(result.settings.map((s) => s.templated)).toEqual([true, true]);
  });

  it('reports malformed lines as ANF300 and a trailing comment without losing the setting', () => {
    const text = 'net.ipv4.tcp_sack 1\n= 1\nnet.ipv4.tcp_sack =\nnet.ipv4 .tcp_sack = 1\nvm.swappiness = 10 # low\n';
    const result = covered(text, 'sysctl');
    expect(result.problems).toEqual([
      { code: 'ANF300', text: 'net.ipv4.tcp_sack 1' },
      { code: 'ANF300', text: '= 1' },
      { code: 'ANF300', text: 'net.ipv4.tcp_sack =' },
      { code: 'ANF300', text: 'net.ipv4 .tcp_sack' },
      { code: 'ANF300', text: '# low' },
    ]);
    expect(result.settings).toMatchObject([{ key: 'vm.swappiness', value: '10' }]);
  });

  it('handles CRLF line ends', () => {
    const text = 'vm.swappiness = 10\r\nnet.ipv4.tcp_sack = 1\r\n';
    const result = covered(text, 'sysctl');
    expect(result.settings.map((s) => s.valueText)).toEqual(['10', '1']);
  });
});

describe('modprobe.d', () => {
  it('reads options lines as module.parameter with spans on the parameter', () => {
    const text =
      '# SAP note 3024346\noptions sunrpc tcp_max_slot_table_entries=128 udp_slot_table_entries=64\noptions nfs max_session_slots=180\ninstall foo /bin/true\n';
    const result = covered(text, 'modprobe');
    expect(result.problems).toEqual([]);
    expect(result.settings).toMatchObject([
      {
        key: 'sunrpc.tcp_max_slot_table_entries',
        keyText: 'tcp_max_slot_table_entries',
        valueText: '128',
        origin: 'modprobe',
      },
      { key: 'sunrpc.udp_slot_table_entries', valueText: '64' },
      { key: 'nfs.max_session_slots', valueText: '180' },
    ]);
  });

  it('joins continuation lines and unquotes values', () => {
    const text = 'options sunrpc \\\n  tcp_max_slot_table_entries="128"\n';
    const result = covered(text, 'modprobe');
    expect(result.settings).toMatchObject([
      { key: 'sunrpc.tcp_max_slot_table_entries', valueText: '128', value: '128' },
    ]);
  });

  it('reports spaces around = and a module run into its parameter (ANF301)', () => {
    const text =
      'options sunrpc tcp_max_slot_table_entries = 128\noptions sunrpc.tcp_slot_table_entries=128\noptions nfs\n';
    expect(covered(text, 'modprobe').problems).toEqual([
      { code: 'ANF301', text: 'tcp_max_slot_table_entries = 128' },
      { code: 'ANF301', text: 'sunrpc.tcp_slot_table_entries=128' },
      { code: 'ANF301', text: 'options nfs' },
    ]);
  });
});

describe('shell scripts', () => {
  const sh = (text: string) => {
    const { settings, problems } = extract(text, 'shell', 'file:///repo/scripts/tune.sh');
    return {
      settings: settings.map((s) => ({
        key: s.key,
        origin: s.origin,
        value: s.value,
        keyText: text.slice(s.keySpan.start, s.keySpan.end),
        valueText: text.slice(s.valueSpan.start, s.valueSpan.end),
        fields: (s.fields ?? []).map((f) => text.slice(f.span.start, f.span.end)),
        persistent: s.persistent,
        templated: s.templated,
      })),
      problems: problems.map((p) => ({ code: p.code, text: text.slice(p.span.start, p.span.end) })),
    };
  };

  it('reads sysctl -w, sysctl key=value and sudo /sbin/sysctl with quoted values', () => {
    const text =
      '#!/bin/bash\nsudo sysctl -w net.ipv4.tcp_sack=1\nsysctl net.core.rmem_max=16777216 >/dev/null\n/sbin/sysctl -w "net.ipv4.tcp_rmem=4096 87380 16777216"\nsysctl -w net.ipv4.tcp_wmem=\'4096 16384 16777216\'\n';
    const result = sh(text);
    expect(result.problems).toEqual([]);
    expect(result.settings).toMatchObject([
      {
        key: 'net.ipv4.tcp_sack',
        origin: 'sysctl-w',
        value: '1',
        keyText: 'net.ipv4.tcp_sack',
        valueText: '1',
        persistent: false,
      },
      { key: 'net.core.rmem_max', value: '16777216' },
      {
        key: 'net.ipv4.tcp_rmem',
        value: '4096 87380 16777216',
        valueText: '4096 87380 16777216',
        fields: ['4096', '87380', '16777216'],
      },
      { key: 'net.ipv4.tcp_wmem', fields: ['4096', '16384', '16777216'] },
    ]);
  });

  it('skips sysctl -p, --system and reads', () => {
    expect(sh('sysctl -p /etc/sysctl.d/90-nfs.conf\nsysctl --system\nsysctl net.ipv4.tcp_sack\n').settings).toEqual([]);
  });

  it('reports sysctl -w with spaces around = (ANF302)', () => {
    expect(sh('sysctl -w net.ipv4.tcp_sack = 1\nsysctl -w vm.swappiness= 10\n').problems).toEqual([
      { code: 'ANF302', text: 'net.ipv4.tcp_sack = 1' },
      { code: 'ANF302', text: 'vm.swappiness= 10' },
    ]);
  });

  it('reads echo > /proc/sys, echo | tee, and /sys/module parameters', () => {
    const text =
      'echo 128 > /proc/sys/sunrpc/tcp_max_slot_table_entries\necho "4096 87380 16777216" | sudo tee /proc/sys/net/ipv4/tcp_rmem\necho 64 >/sys/module/sunrpc/parameters/tcp_slot_table_entries 2>&1\n';
    expect(sh(text).settings).toMatchObject([
      {
        key: 'sunrpc.tcp_max_slot_table_entries',
        origin: 'proc-echo',
        value: '128',
        keyText: 'sunrpc/tcp_max_slot_table_entries',
        valueText: '128',
      },
      { key: 'net.ipv4.tcp_rmem', fields: ['4096', '87380', '16777216'] },
      { key: 'sunrpc.tcp_slot_table_entries', value: '64' },
    ]);
  });

  it('reads lines echoed into sysctl.conf and modprobe.d, and here-documents', () => {
    const text = [
      'echo "net.ipv4.tcp_sack = 1" >> /etc/sysctl.conf',
      'echo "options sunrpc tcp_max_slot_table_entries=128" > /etc/modprobe.d/sunrpc.conf',
      "cat > /etc/sysctl.d/90-nfs.conf <<'EOF'",
      'net.core.rmem_max = 16777216',
      'EOF',
      'cat <<EOF | sudo tee /etc/modprobe.d/nfs.conf',
      'options nfs max_session_slots=180',
      'EOF',
      'cat > /tmp/other.txt <<EOF',
      'sysctl -w net.ipv4.tcp_sack=0',
      'EOF',
      '',
    ].join('\n');
    const result = sh(text);
    expect(result.settings.map((s) => [s.key, s.valueText, s.persistent])).toEqual([
      ['net.ipv4.tcp_sack', '1', true],
      ['sunrpc.tcp_max_slot_table_entries', '128', true],
      ['net.core.rmem_max', '16777216', true],
      ['nfs.max_session_slots', '180', true],
    ]);
  });

  it('follows line continuations and ignores comments', () => {
    const text = 'sysctl -w \\\n  net.ipv4.tcp_sack=1 # sysctl -w net.ipv4.tcp_dsack=0\n# sysctl -w vm.swappiness=1\n';
    expect(sh(text).settings.map((s) => s.key)).toEqual(['net.ipv4.tcp_sack']);
  });

  it('finds commands after shell keywords and operators', () => {
    const text =
      'if [ -d /proc/sys/sunrpc ]; then sysctl -w sunrpc.tcp_max_slot_table_entries=128; fi\nfor k in a; do sysctl -w vm.swappiness=10; done\ntrue && sysctl -w net.ipv4.tcp_sack=1 || echo failed\n';
    expect(sh(text).settings.map((s) => s.key)).toEqual([
      'sunrpc.tcp_max_slot_table_entries',
      'vm.swappiness',
      'net.ipv4.tcp_sack',
    ]);
  });

  it('marks variables as templated', () => {
    expect(sh('sysctl -w net.core.rmem_max=$RMEM\n').settings[0]?.templated).toBe(true);
  });
});

describe('tuned, Markdown and cloud-init', () => {
  it('reads only the [sysctl] section of a tuned profile', () => {
    const text =
      '[main]\nsummary=ANF client\ninclude=throughput-performance\n\n[sysctl]\nnet.ipv4.tcp_sack=1\nvm.dirty_ratio = 20\n\n[vm]\ntransparent_hugepages=never\n';
    const result = covered(text, 'tuned');
    expect(result.settings.map((s) => [s.key, s.origin])).toEqual([
      ['net.ipv4.tcp_sack', 'tuned'],
      ['vm.dirty_ratio', 'tuned'],
    ]);
  });

  it('reads fenced shell blocks and sysctl-looking blocks in Markdown', () => {
    const text =
      '# Tuning\n\n```bash\nsudo sysctl -w net.ipv4.tcp_sack=1\n```\n\n```\nnet.core.rmem_max = 16777216\n```\n\n```yaml\nnet.core.wmem_max: 1\n```\n\n```console\n$ sysctl -w vm.swappiness=10\n```\n';
    expect(covered(text, 'markdown').settings.map((s) => [s.key, s.origin])).toEqual([
      ['net.ipv4.tcp_sack', 'sysctl-w'],
      ['net.core.rmem_max', 'sysctl'],
      ['vm.swappiness', 'sysctl-w'],
    ]);
  });

  it('reads cloud-init runcmd items and write_files content', () => {
    const text = [
      '#cloud-config',
      'write_files:',
      '  - path: /etc/sysctl.d/90-nfs.conf',
      '    content: |',
      '      net.ipv4.tcp_sack = 1',
      '      vm.swappiness = 10',
      '  - path: /etc/motd',
      '    content: |',
      '      net.ipv4.tcp_sack = 0',
      'runcmd:',
      '  - sysctl -w net.core.rmem_max=16777216',
      '  - [ sysctl, -w, "net.core.wmem_max=16777216" ]',
      '  - "echo 128 > /proc/sys/sunrpc/tcp_max_slot_table_entries"',
      '',
    ].join('\n');
    const result = covered(text, 'cloud-init');
    expect(result.settings.map((s) => [s.key, s.valueText])).toEqual([
      ['net.ipv4.tcp_sack', '1'],
      ['vm.swappiness', '10'],
      ['net.core.rmem_max', '16777216'],
      ['net.core.wmem_max', '16777216'],
      ['sunrpc.tcp_max_slot_table_entries', '128'],
    ]);
  });
});

describe('robustness', () => {
  const kinds: FileKind[] = ['sysctl', 'modprobe', 'tuned', 'shell', 'markdown', 'cloud-init'];
  it('never throws and keeps spans inside the text, whatever the input', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            'a',
            '=',
            ' ',
            '\n',
            '\\',
            '"',
            "'",
            '#',
            ';',
            '-',
            '/',
            '.',
            '>',
            '<',
            '|',
            '[',
            ']',
            '`',
            'sysctl ',
            'echo ',
            'options ',
            '/proc/sys/',
            '<<EOF\n',
            'EOF',
            '```\n',
            '1',
          ),
        }),
        fc.constantFrom(...kinds),
        (text, kind) => {
          const { settings, problems } = extract(text, kind);
          for (const s of settings) {
            for (const span of [s.span, s.keySpan, s.valueSpan]) {
              expect(span.start).toBeGreaterThanOrEqual(0);
              expect(span.end).toBeLessThanOrEqual(text.length);
              expect(span.end).toBeGreaterThanOrEqual(span.start);
            }
          }
          for (const p of problems) expect(p.span.end).toBeLessThanOrEqual(text.length);
        },
      ),
      { numRuns: propertyRuns(400) },
    );
  });

  it('stays linear on long adversarial lines', () => {
    const long = 50_000; // a quadratic step would take minutes here; linear work takes a few seconds on a busy machine
    const inputs = [
      `${' '.repeat(long)}x`,
      `${'/'.repeat(long)}a = 1`,
      '- '.repeat(long),
      '"'.repeat(long),
      '\\ '.repeat(long),
      `sysctl -w ${'a='.repeat(long)}`,
      `options sunrpc ${'x=1 '.repeat(long / 4)}`,
      '`'.repeat(long),
    ];
    const kinds: FileKind[] = ['sysctl', 'modprobe', 'tuned', 'shell', 'markdown', 'cloud-init'];
    const started = startCpu();
    for (const text of inputs) for (const kind of kinds) extract(text, kind);
    expect(cpuMillisSince(started)).toBeLessThan(15_000);
  });

  it('the shell reader and line parsers themselves never throw (no safety net)', () => {
    const unit = fc.constantFrom(
      'a',
      '=',
      ' ',
      '\t',
      '\n',
      '\r',
      '\\',
      '"',
      "'",
      '$',
      '(',
      ')',
      '#',
      ';',
      '&',
      '|',
      '>',
      '<',
      '-',
      '/',
      '`',
      'sysctl',
      'echo',
      'tee',
      'options',
      '/proc/sys/',
      '/etc/sysctl.conf',
      '<<',
      'EOF',
      '1',
    );
    fc.assert(
      fc.property(fc.string({ unit }), (text) => {
        const sink: Sink = { uri: 'file:///x', settings: [], problems: [] };
        scanShell(text, 0, text.length, sink);
        scanShell(text, 0, text.length, sink, true);
        for (const line of text.split('\n')) {
          parseSysctlLine(contiguousPiece(line, 0), sink, 'sysctl', true);
          parseModprobeLine(contiguousPiece(line, 0), sink, true);
        }
        for (const s of sink.settings) expect(s.keySpan.end).toBeGreaterThanOrEqual(s.keySpan.start);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});
