import { describe, expect, it } from 'vitest';
import { parseConfigFile } from '../../server/src/core/configFile';

function problems(text: string) {
  return parseConfigFile(text).problems.map((p) => `${p.code} ${text.slice(p.span.start, p.span.end)} | ${p.message}`);
}

describe('parseConfigFile', () => {
  it('reads a valid file', () => {
    const result = parseConfigFile(
      'region: westeurope\nrules:\n  ANF001: off\nnetwork:\n  rtt: 2 ms\nworkload: eda-tools\nkernelVersion: "5.14"\n',
    );
    expect(result.problems).toEqual([]);
    expect(result.config).toEqual({
      region: 'westeurope',
      rules: { ANF001: 'off' },
      network: { rtt: '2 ms' },
      workload: 'eda-tools',
      kernelVersion: '5.14',
    });
  });

  it('treats an empty file or comments only as the defaults', () => {
    expect(parseConfigFile('')).toEqual({ config: {}, problems: [] });
    expect(parseConfigFile('# nothing\n')).toEqual({ config: {}, problems: [] });
  });

  it('reports YAML syntax errors at their place', () => {
    const text = 'rules:\n  ANF001: off\n   ANF002: error\n';
    const result = parseConfigFile(text);
    expect(result.problems.length).toBeGreaterThan(0);
    expect(result.problems.every((p) => p.code === 'ANF900')).toBe(true);
    expect(result.config).toEqual({});
  });

  it('reports a duplicate key', () => {
    expect(problems('region: eastus\nregion: westeurope\n')[0]).toMatch(/^ANF900 /);
  });

  it('names unknown keys with a suggestion, at the key, and keeps the rest', () => {
    const result = parseConfigFile('netwrok:\n  rtt: 1 ms\nregion: eastus\n');
    expect(result.problems).toHaveLength(1);
    const [p] = result.problems;
    expect(p!.code).toBe('ANF901');
    expect(p!.span).toEqual({ start: 0, end: 7 });
    expect(p!.message).toContain('did you mean "network"?');
    expect(p!.fixes?.[0]?.edits[0]?.newText).toBe('network');
    expect(result.config).toEqual({ region: 'eastus' });
  });

  it('finds unknown keys in nested mappings', () => {
    expect(problems('network:\n  rt: 1 ms\n')).toEqual([
      expect.stringMatching(/^ANF901 rt \| network: unknown key "rt"; did you mean "rtt"\?/),
    ]);
  });

  it('reports invalid values with the allowed ones and drops them', () => {
    const text = 'workload: eda-tool\nsapHanaBehindLoadBalancer: yes\nkernelVersion: five\n';
    const result = parseConfigFile(text);
    expect(result.problems.map((p) => [p.code, text.slice(p.span.start, p.span.end)])).toEqual([
      ['ANF902', 'eda-tool'],
      ['ANF902', 'yes'],
      ['ANF902', 'five'],
    ]);
    expect(result.problems[0]!.message).toContain('did you mean eda-tools?');
    expect(result.config).toEqual({});
  });

  it('reads behindAzureLoadBalancer as true or a list of host names, and still reads the old key', () => {
    expect(
      parseConfigFile('behindAzureLoadBalancer: [hana-node1, ascs-01]\nsapHanaBehindLoadBalancer: true\n').config,
    ).toEqual({ behindAzureLoadBalancer: ['hana-node1', 'ascs-01'], sapHanaBehindLoadBalancer: true });
    expect(problems('behindAzureLoadBalancer: "yes"\n')).toEqual([
      'ANF902 "yes" | behindAzureLoadBalancer: expected true, false or a list of host names (the folders above etc/).',
    ]);
  });

  it('checks units of network values', () => {
    expect(problems('network:\n  rtt: "0.5"\n  bandwidth: fast\n').map((p) => p.slice(0, 6))).toEqual([
      'ANF902',
      'ANF902',
    ]);
  });

  it('checks rule codes and severities', () => {
    const text = 'rules:\n  ANF0O1: off\n  ANF001: of\n  ANF999: off\n  ANF002: warning\n';
    const result = parseConfigFile(text);
    expect(result.problems.map((p) => [p.code, text.slice(p.span.start, p.span.end)])).toEqual([
      ['ANF903', 'ANF0O1'],
      ['ANF902', 'of'],
      ['ANF903', 'ANF999'],
    ]);
    expect(result.problems[0]!.message).toContain('did you mean ANF001?');
    expect(result.problems[1]!.message).toContain('did you mean off?');
    expect(result.config.rules).toEqual({ ANF999: 'off', ANF002: 'warning' });
  });

  it('treats YAML false as a near miss for off', () => {
    const result = parseConfigFile('rules:\n  ANF001: false\n');
    expect(result.problems[0]!.code).toBe('ANF902');
    expect(result.problems[0]!.fixes?.[0]?.edits[0]?.newText).toBe('off');
  });

  it('warns about a region without prices', () => {
    expect(problems('region: mars\n')).toEqual([expect.stringMatching(/^ANF904 mars \|/)]);
  });

  it('rejects a file that is not a mapping', () => {
    expect(problems('- a\n- b\n')[0]).toMatch(/^ANF902 /);
  });
});

describe('parseConfigFile never throws', () => {
  it('turns an alias bomb into ANF900', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...'bcdefghi'.split('').map(
        (k, i) =>
          `${k}: &${k} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
    ].join('\n');
    const result = parseConfigFile(`${bomb}\n`);
    expect(result.config).toEqual({});
    expect(result.problems.length).toBeGreaterThan(0);
    expect(result.problems.every((p) => p.code === 'ANF900' || p.code === 'ANF901')).toBe(true);
  });

  it('reports several documents in one file', () => {
    expect(parseConfigFile('region: eastus\n---\nregion: westeurope\n').problems[0]?.code).toBe('ANF900');
  });
});
