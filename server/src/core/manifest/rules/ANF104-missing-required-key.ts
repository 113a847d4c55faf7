import { manifestExample, parseProblemRule } from './helpers';

export const missingRequiredKey = parseProblemRule({
  code: 'ANF104',
  name: 'missing-required-key',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Required key missing',
    what: "An account, pool or volume without a key it must have: a name, a pool's `serviceLevel` and `size`, a volume's `quota`, or the top-level `accounts` list.",
    why: "Without them anf-lint cannot compute the pool's budget or the volume's throughput, so it cannot check the estate or say what it costs; Azure would refuse to create the resource too.",
    instead: 'Add the key the message names; the message gives its meaning and an example value.',
    examples: [
      manifestExample(
        '- name: tools-pool\n  serviceLevel: Premium\n  volumes: []',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes: []',
      ),
    ],
  },
});
