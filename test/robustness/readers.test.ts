/**
 * A fuzz target per reader (issue 32): for every file kind anf-lint reads (Terraform, Bicep, ARM,
 * `az` JSON, manifests, the configuration file, and every host format: fstab, autofs, systemd
 * mounts, sysctl, modprobe, tuned, shell, Ansible, cloud-init, Kubernetes, Helm, Markdown, ...),
 * real files of that kind from the corpus, mutated, linted alone: no reader or rule fails (no
 * ANF002, no ANF003). `npm test` runs a small fixed-seed slice per kind; `npm run fuzz` runs
 * ROBUSTNESS_RUNS per kind with a random seed, and there only (READER_TIME_BOUND_MS, set by the
 * fuzz script's environment or by hand) a CPU-time bound per input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILE_KINDS, type FileKind } from '../../server/src/core';
import { internalFaults, lintAll } from './check';
import { corpusOfKind, mutatedFile, RUNS } from './corpus';

/** CPU time per input allowed in `npm run fuzz` (never in npm test, where the machine may be loaded). */
const TIME_BOUND_MS = process.env.REGEX_TIMING ? Number(process.env.READER_TIME_BOUND_MS ?? 10_000) : undefined;
/** Per kind: a tenth of the pipeline's runs in npm test (at least 3), all of them in npm run fuzz. */
const RUNS_PER_KIND = TIME_BOUND_MS === undefined ? Math.max(3, Math.ceil(RUNS / 10)) : RUNS;

const KINDS = FILE_KINDS.filter((kind) => kind !== 'unknown' && corpusOfKind(kind).length > 0);

describe('a fuzz target per reader', () => {
  it('covers the readers of infrastructure code, manifests and hosts', () => {
    for (const kind of ['terraform', 'bicep', 'arm-template', 'manifest-yaml', 'fstab', 'shell'] as FileKind[])
      expect(KINDS, kind).toContain(kind);
  });

  it.each(KINDS)(
    '%s: mutated files are read without a reader or rule failure',
    (kind) => {
      fc.assert(
        fc.property(mutatedFile(corpusOfKind(kind)), (file) => {
          const started = process.cpuUsage();
          const { diagnostics } = lintAll([file]);
          const used = process.cpuUsage(started);
          expect(internalFaults(diagnostics.get(file.uri) ?? []), file.uri).toEqual([]);
          if (TIME_BOUND_MS !== undefined)
            expect(
              (used.user + used.system) / 1000,
              `${file.uri}: CPU ms for ${file.text.length} characters`,
            ).toBeLessThan(TIME_BOUND_MS);
        }),
        { numRuns: RUNS_PER_KIND },
      );
    },
    300_000,
  );
});
