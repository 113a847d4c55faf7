import { parseProblemRule } from './helpers';

export const manifestSyntaxError = parseProblemRule({
  code: 'ANF100',
  name: 'manifest-syntax-error',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Manifest is not valid YAML or JSON',
    what: 'The sizing manifest cannot be read: a YAML or JSON syntax error (bad indentation, an unclosed bracket or quote, a tab used for indentation), several documents in one file, aliases that expand to an unbounded size (an "alias bomb"), or nesting deeper than 200 levels (refused before parsing; real manifests nest about 6).',
    why: 'anf-lint can only check what it can read. Everything after a syntax error may be misread, so other findings in the file are less reliable until it is fixed.',
    instead:
      'Fix the syntax at the underlined place. Indent with spaces, close every `[`, `{` and quote, keep one document per file, and write values out instead of nesting aliases of aliases.',
    examples: [
      {
        flagged: 'accounts:\n  - name: eda-prod\n    pools: [ { name: tools, serviceLevel: Premium, size: 4 TiB }',
        better: 'accounts:\n  - name: eda-prod\n    pools: [ { name: tools, serviceLevel: Premium, size: 4 TiB } ]',
        language: 'yaml',
      },
    ],
  },
});
