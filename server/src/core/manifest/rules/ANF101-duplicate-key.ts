import { manifestExample, parseProblemRule } from './helpers';

export const duplicateKey = parseProblemRule({
  code: 'ANF101',
  name: 'duplicate-key',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Key set twice in the same mapping',
    what: 'The same key appears twice in one pool, volume or other mapping, e.g. two `size:` lines in a pool.',
    why: 'Only one value can count (YAML tools disagree on which: some keep the last, some reject the file). The other one is a silent lie about the estate, usually a leftover from an edit.',
    instead: 'Keep one of the two keys, with the value you mean. The related location shows the first one.',
    examples: [
      manifestExample(
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  size: 8 TiB',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 8 TiB',
      ),
    ],
  },
});
