import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bodyLines,
  commandIndex,
  forEachPipeline,
  offsetAt,
  tokenizeShell,
  type ShellCommand,
  type ShellWord,
} from '../../server/src/core/text/shell';
import { cpuMillisSince, startCpu } from '../support/cpuTime';
import { propertyRuns } from '../support/propertyRuns';

/** Each command as its word values, its redirects and its separator. */
const shape = (text: string, options = {}) =>
  tokenizeShell(text, 0, text.length, options).map((c: ShellCommand) => ({
    words: c.words.map((w) => w.value),
    redirects: c.redirects.map((r) => `${r.fd ?? ''}${r.op}${r.target?.value ?? ''}`),
    separator: c.separator,
  }));
const words = (text: string) => tokenizeShell(text).flatMap((c) => c.words);
/** The source character of each character of the word's value. */
const mapped = (text: string, word: ShellWord) => [...word.value].map((_, k) => text[offsetAt(word, k)]).join('');

describe('shared shell tokenizer', () => {
  it('removes quotes and resolves escapes, keeping the word as written', () => {
    const text = `mount -o "rw,hard" 'a b'c \\$HOME "x\\"y\\n" $'z'`;
    const found = words(text);
    expect(found.map((w) => w.value)).toEqual(['mount', '-o', 'rw,hard', 'a bc', '$HOME', 'x"y\\n', 'z']);
    expect(found.map((w) => w.raw)).toEqual(['mount', '-o', '"rw,hard"', "'a b'c", '\\$HOME', '"x\\"y\\n"', "$'z'"]);
    for (const w of found) expect(text.slice(w.span.start, w.span.end)).toBe(w.raw);
  });

  it('maps every character of a value back to its place in the source', () => {
    const text = `sysctl -w "net.ipv4.tcp_rmem=4096 87380" a\\ b 'q'"r"s`;
    for (const w of words(text)) expect(mapped(text, w)).toBe(w.value);
    const quoted = words(text)[2]!;
    expect(offsetAt(quoted, 0)).toBe(text.indexOf('net'));
    expect(offsetAt(quoted, quoted.value.length)).toBe(quoted.span.end);
  });

  it('joins `\\` continuations, also inside a word, with offsets that skip the join', () => {
    const text = 'mount -t nfs \\\n  -o rw \\\r\n  srv:/a /a\nab\\\ncd';
    expect(shape(text)).toEqual([
      { words: ['mount', '-t', 'nfs', '-o', 'rw', 'srv:/a', '/a'], redirects: [], separator: '\n' },
      { words: ['abcd'], redirects: [], separator: '' },
    ]);
    const joined = words(text).at(-1)!;
    expect(mapped(text, joined)).toBe('abcd');
    expect(joined.raw).toBe('ab\\\ncd');
  });

  it('splits on ; && || | |& & and newlines, and records the separator', () => {
    expect(shape('a 1; b && c || d | e |& f & g\nh').map((c) => [c.words.join(' '), c.separator])).toEqual([
      ['a 1', ';'],
      ['b', '&&'],
      ['c', '||'],
      ['d', '|'],
      ['e', '|&'],
      ['f', '&'],
      ['g', '\n'],
      ['h', ''],
    ]);
  });

  it('skips comments, but not a # inside a word', () => {
    expect(shape('# mount -a\necho a#b # c\n')).toEqual([{ words: ['echo', 'a#b'], redirects: [], separator: '\n' }]);
  });

  it('reads redirections, descriptor numbers and &>', () => {
    expect(shape('echo 1 > /proc/sys/x 2>/dev/null 2>&1 &>>log >>/etc/fstab')).toEqual([
      {
        words: ['echo', '1'],
        redirects: ['>/proc/sys/x', '2>/dev/null', '2>&1', '&>>log', '>>/etc/fstab'],
        separator: '',
      },
    ]);
  });

  it('reads here-document bodies, with <<- dropping leading tabs from the delimiter line', () => {
    const text =
      "cat >> /etc/fstab <<'EOF'\nsrv:/a /a nfs rw 0 0\nEOF\ncat <<-END | tee x\n\tline\n\tEND\necho after\n";
    const commands = tokenizeShell(text);
    expect(commands.map((c) => c.words.map((w) => w.value).join(' '))).toEqual(['cat', 'cat', 'tee x', 'echo after']);
    const [first, second] = commands;
    const body = first!.redirects.find((r) => r.body)!.body!;
    expect(text.slice(body.start, body.end)).toBe('srv:/a /a nfs rw 0 0\n');
    expect(bodyLines(text, body)).toEqual([{ text: 'srv:/a /a nfs rw 0 0', start: text.indexOf('srv') }]);
    const tabbed = second!.redirects.find((r) => r.op === '<<-')!;
    expect(tabbed.target?.value).toBe('END');
    expect(text.slice(tabbed.body!.start, tabbed.body!.end)).toBe('\tline\n');
  });

  it('an unterminated here-document runs to the end of the range', () => {
    const text = 'cat <<EOF\na\nb';
    const body = tokenizeShell(text)[0]!.redirects[0]!.body!;
    expect(text.slice(body.start, body.end)).toBe('a\nb');
  });

  it('keeps $(...), ${...} and backticks inside the word, marks them templated and records substitutions', () => {
    const text = 'x=$(sysctl -n a) mount -o "${OPTS}" `hostname`:/v /v';
    const found = words(text);
    expect(found.map((w) => [w.value, w.templated])).toEqual([
      ['x=$(sysctl -n a)', true],
      ['mount', false],
      ['-o', false],
      ['${OPTS}', true],
      ['`hostname`:/v', true],
      ['/v', false],
    ]);
    expect(found[0]!.substitutions.map((s) => text.slice(s.start, s.end))).toEqual(['sysctl -n a']);
    expect(found[4]!.substitutions.map((s) => text.slice(s.start, s.end))).toEqual(['hostname']);
  });

  it('strips `$ ` prompts only when asked', () => {
    const text = '$ sudo sysctl -w a=1\n  $ echo b\n';
    expect(shape(text, { stripPrompt: true }).map((c) => c.words.join(' '))).toEqual(['sudo sysctl -w a=1', 'echo b']);
    expect(shape(text).map((c) => c.words[0])).toEqual(['$', '$']);
  });

  it('reads only text[from, to)', () => {
    const text = 'ignored; mount -a; ignored';
    const from = text.indexOf('mount');
    expect(tokenizeShell(text, from, from + 'mount -a'.length).map((c) => c.words.map((w) => w.value))).toEqual([
      ['mount', '-a'],
    ]);
  });

  it('finds the command behind assignments, sudo, env, timeout and shell keywords', () => {
    const index = (text: string) => {
      const ws = words(text);
      return ws[commandIndex(ws)]?.value;
    };
    expect(index('sudo -u root -E /sbin/sysctl -w a=1')).toBe('/sbin/sysctl');
    expect(index('LANG=C env A=b timeout 30 mount -a')).toBe('mount');
    expect(index('then sysctl -w a=1')).toBe('sysctl');
    expect(index('sudo')).toBeUndefined();
  });

  it('never throws, keeps spans inside the range and maps values onto the source', () => {
    const unit = fc.constantFrom(
      'a',
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
      '{',
      '}',
      '`',
      '#',
      ';',
      '&',
      '|',
      '<',
      '>',
      '-',
      '<<',
      'EOF',
      '$(',
      '${',
      '1',
    );
    fc.assert(
      fc.property(fc.string({ unit }), fc.boolean(), (text, stripPrompt) => {
        for (const command of tokenizeShell(text, 0, text.length, { stripPrompt })) {
          for (const w of command.words) {
            expect(w.span.start).toBeGreaterThanOrEqual(0);
            expect(w.span.end).toBeLessThanOrEqual(text.length);
            expect(w.raw).toBe(text.slice(w.span.start, w.span.end));
            for (let k = 0; k < w.value.length; k++) {
              const at = offsetAt(w, k);
              expect(at).toBeGreaterThanOrEqual(w.span.start);
              expect(at).toBeLessThan(w.span.end);
              expect(text[at]).toBe(w.value[k]);
            }
          }
          for (const r of command.redirects) if (r.body) expect(r.body.end).toBeLessThanOrEqual(text.length);
        }
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('stays linear on long adversarial input', () => {
    const long = 200_000; // not a fact: large enough that a quadratic step would take minutes
    const inputs = [
      '"'.repeat(long),
      '\\ '.repeat(long),
      '$('.repeat(long),
      '`'.repeat(long),
      "'".repeat(long),
      '<<EOF\n'.repeat(long / 10),
      'a'.repeat(long),
    ];
    const started = startCpu();
    for (const text of inputs) tokenizeShell(text);
    expect(cpuMillisSince(started)).toBeLessThan(5_000);
  });

  it('forEachPipeline: the commands of tokenizeShell, a pipeline at a time, here-document bodies already read', () => {
    const text =
      'cat <<EOF | tee -a /etc/fstab; echo done\n10.0.0.4:/v /v nfs hard 0 0\nEOF\nmount -a && sysctl -w a=1 | tee x |& cat\n';
    const pipelines: string[][] = [];
    const bodies: (string | undefined)[] = [];
    forEachPipeline(text, 0, text.length, {}, (pipeline) => {
      pipelines.push(pipeline.map((c) => `${c.words.map((w) => w.value).join(' ')}${c.separator}`));
      for (const command of pipeline)
        for (const redirect of command.redirects)
          if (redirect.op === '<<') bodies.push(redirect.body && text.slice(redirect.body.start, redirect.body.end));
    });
    expect(pipelines).toEqual([
      ['cat|', 'tee -a /etc/fstab;'],
      ['echo done\n'],
      ['mount -a&&'],
      ['sysctl -w a=1|', 'tee x|&', 'cat\n'],
    ]);
    // The body is on the redirect when its command is visited (it follows the command's line).
    expect(bodies).toEqual(['10.0.0.4:/v /v nfs hard 0 0\n']);
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('a', ' ', '|', ';', '\n', '<', '<<', 'EOF', '"', "'", '&', '\\', '$(', ')'),
        }),
        (input) => {
          const visited: ShellCommand[] = [];
          forEachPipeline(input, 0, input.length, {}, (pipeline) => visited.push(...pipeline));
          expect(visited).toEqual(tokenizeShell(input));
        },
      ),
    );
  });
});
