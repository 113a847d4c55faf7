import { lazyFinding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { mountFix } from '../fixes';

export const optionsInExtraQuotes = defineRule({
  code: 'ANF241',
  name: 'options-in-extra-quotes',
  domain: 'mount',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Option list wrapped in an extra pair of quotes',
    what: 'Quotes that are part of the option text itself: `"\'rw,vers=4,minorversion=1\'"` in YAML, `\'"rw,hard"\'` in a script, `"rw,hard"` in an fstab field.',
    why: 'YAML and the shell remove one pair of quotes; the inner pair reaches mount, which reads `\'rw` as the first option and `minorversion=1\'` as the last and refuses the mount ("an incorrect mount option was specified"). fstab has no quoting at all. Where the string is only a variable (found by its content), it is a mistake unless the variable is pasted into a shell command line, where the inner quotes are shell quoting: then it is reported as a warning.',
    instead: 'Write one pair of quotes: `opts: "rw,vers=4,minorversion=1"`. The fix removes the inner pair.',
    examples: [
      {
        flagged: 'hana_nfs_opts: "\'rw,hard,vers=4,minorversion=1,sec=sys\'"',
        better: 'hana_nfs_opts: "rw,hard,vers=4,minorversion=1,sec=sys"',
        language: 'yaml',
        file: 'group_vars/hana.yml',
      },
    ],
    sources: ['NFS5'],
  },
  judges: 'any mount',
  appliesTo: (file) => file.mounts.some((m) => m.optionsQuotes !== undefined),
  checkMount({ mount }, context) {
    const text = context.file.source.text;
    const quotes = mount.optionsQuotes;
    if (!quotes) return;
    const quote = text.slice(quotes.open.start, quotes.open.end);
    context.report(
      lazyFinding(
        {
          span: { start: quotes.open.start, end: quotes.close.end },
          ...(quotes.certain ? {} : { severity: 'warning' as const }),
        },
        () => ({
          message: quotes.certain
            ? `The option list is wrapped in an extra pair of quotes (\`${quote}\`): mount receives them as part of the first and last option and refuses the mount. Remove the inner quotes.`
            : `This option string carries its own quotes (\`${quote}\`): used as \`opts:\` or in fstab, mount receives them and refuses the mount. Remove them, unless the variable is pasted into a shell command line where they are shell quoting.`,
          fixes: mountFix.unsafe(
            'Remove the inner quotes',
            { span: quotes.close, newText: '' },
            { span: quotes.open, newText: '' },
          ),
        }),
      ),
    );
  },
});
