import { manifestExample, parseProblemRule } from './helpers';

export const unknownKey = parseProblemRule({
  code: 'ANF102',
  name: 'unknown-key',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Unknown key in the manifest',
    what: 'A key the manifest format does not have, usually a typo (`serviceLvl`, `Quota`) or a key at the wrong level (a volume key on a pool). The message suggests the closest known key and lists the keys that belong there.',
    why: 'An unknown key is ignored, so the value you wrote has no effect: a misspelled `quota` leaves the volume without a size, a misspelled `throughput` leaves a manual-QoS volume at nothing.',
    instead:
      'Use the suggested key (the fix renames it), or move the key to the level where it belongs. Completion in the editor lists the keys of each level; `schemas/anf-manifest.schema.json` documents them.',
    examples: [
      manifestExample(
        '- name: tools-pool\n  serviceLvl: Premium\n  size: 4 TiB',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB',
      ),
    ],
  },
});
