import { defineRule } from '../../rules/rule';
import { type SpanEdit, unsafeFix } from '../../diagnostics';
import { isTypographicQuote, QUOTED_KERNEL_LINE } from '../lines';
import { reportProblems } from '../../rules/problems';
import { hasProblem } from './common';

export const quotedKernelLine = defineRule({
  code: 'ANF323',
  name: 'quoted-kernel-line',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'A sysctl or modprobe line wrapped in typographic quotes',
    what: 'A line of a sysctl file, tuned profile or `modprobe.d` file (also one a script writes there, or a `sysctl -w` word) that starts with a curly or angle quote (`“`, `‘`, `„`, `«`, ...), usually with its closing quote at the end: `“options nfs max_session_slots=180”`; or a value wrapped in them (`max_session_slots=“180”`). Word processors and web pages put them there, and copying takes them along.',
    why: 'Neither tool knows about quotes. sysctl takes `“net.ipv4.tcp_sack` as the key, finds no such file under `/proc/sys` and reports an error at every boot; modprobe reads `“options` as an unknown command and skips the line. A quoted value is rejected by the kernel (for a module parameter, the module then does not load). Either way the setting never applies, and nothing but a log line says so.',
    instead: 'Remove the quotes. The fix removes them; review it, since the setting then starts to apply.',
    examples: [
      {
        flagged: '“options nfs max_session_slots=180”',
        better: 'options nfs max_session_slots=180',
        language: 'ini',
        file: '/etc/modprobe.d/nfs.conf',
      },
    ],
    sources: ['KSYSCTL', 'CS'],
  },
  appliesTo: (file) => hasProblem(QUOTED_KERNEL_LINE)(file) || file.settings.some((s) => quotedKey(s.rawKey)),
  check(context) {
    reportProblems(QUOTED_KERNEL_LINE, context);
    const text = context.file.source.text;
    for (const setting of context.file.settings) {
      if (!quotedKey(setting.rawKey)) continue;
      const written = text.slice(setting.keySpan.start, setting.keySpan.end);
      const at = written.search(/[^\s-]/);
      if (at < 0 || !isTypographicQuote(written[at])) continue;
      const open = setting.keySpan.start + at;
      const closeAt = setting.valueSpan.end - 1;
      const edits: SpanEdit[] = [{ span: { start: open, end: open + 1 }, newText: '' }];
      if (isTypographicQuote(text[closeAt])) edits.push({ span: { start: closeAt, end: closeAt + 1 }, newText: '' });
      context.report({
        span: setting.span,
        message: `This setting is wrapped in typographic quotes (${text[open]}${edits.length > 1 ? `…${text[closeAt]}` : ''}), as copied from a web page or document: the kernel looks for a key named \`${setting.key}\`, finds none and sets nothing. Remove the quotes.`,
        fixes: [unsafeFix('Remove the quotes', edits)],
      });
    }
  },
});

/** A setting whose key starts with a typographic quote: a quoted `sysctl -w` word, or a line another format wrote. */
const quotedKey = (rawKey: string) => isTypographicQuote(rawKey.replace(/^-\s*/, '')[0]);
