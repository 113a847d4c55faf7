/**
 * Property tests for every parser: on any input (real files mutated with the characters parsers
 * trip on, and arbitrary Unicode) it never throws, every span it returns lies inside the document,
 * and the same input gives the same output.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfigFile, SourceText, type FileKind } from '../../server/src/core';
import { parseManifest } from '../../server/src/core/manifest/parse';
import { extractMounts } from '../../server/src/core/mounts/extract';
import { extractKernelSettings } from '../../server/src/core/sysctl/extract';
import { readFio } from '../../server/src/core/perftest/fio';
import { readVdbench } from '../../server/src/core/perftest/vdbench';
import { parseMountstats } from '../../server/src/core/mountstats/parse';
import { badSpans, corpusOfKind, CORPUS, fingerprint, mutatedFile, RUNS, type CorpusFile } from './corpus';

/** Real files of the kind when the corpus has some, else any corpus file (still a fair input). */
function inputs(...kinds: FileKind[]): fc.Arbitrary<CorpusFile> {
  const files = corpusOfKind(...kinds);
  const base = mutatedFile(files.length > 0 ? files : CORPUS);
  const arbitrary = fc.string({ unit: 'binary', maxLength: 300 }).map((text) => ({ ...CORPUS[0]!, text }));
  return fc.oneof({ weight: 4, arbitrary: base }, { weight: 1, arbitrary });
}

function checkParser(
  name: string,
  arbitrary: fc.Arbitrary<CorpusFile>,
  parse: (text: string, uri: string) => unknown,
): void {
  it(`${name}: never throws, spans inside the text, deterministic`, () => {
    fc.assert(
      fc.property(arbitrary, (file) => {
        const first = parse(file.text, file.uri);
        expect(badSpans(first, file.text.length)).toEqual([]);
        expect(fingerprint(parse(file.text, file.uri))).toBe(fingerprint(first));
      }),
      { numRuns: RUNS },
    );
  });
}

describe('parsers never throw and stay inside the document', () => {
  it('has a corpus of real files of every kind', () => {
    const kinds = new Set(CORPUS.map((f) => f.kind));
    for (const kind of [
      'manifest-yaml',
      'fstab',
      'sysctl',
      'modprobe',
      'shell',
      'systemd-mount',
      'anf-lint-config',
    ] as const)
      expect(kinds).toContain(kind);
  });

  checkParser('parseManifest (YAML)', inputs('manifest-yaml'), (text, uri) =>
    parseManifest(new SourceText(text), uri, 'yaml'),
  );
  checkParser('parseManifest (JSON)', inputs('manifest-json', 'manifest-yaml'), (text, uri) =>
    parseManifest(new SourceText(text), uri, 'json'),
  );
  for (const kind of ['fstab', 'shell', 'markdown', 'systemd-mount', 'autofs', 'ansible', 'cloud-init'] as const) {
    checkParser(`extractMounts (${kind})`, inputs(kind), (text, uri) => extractMounts(new SourceText(text), uri, kind));
  }
  for (const kind of ['sysctl', 'modprobe', 'shell', 'tuned', 'markdown', 'cloud-init'] as const) {
    checkParser(`extractKernelSettings (${kind})`, inputs(kind), (text, uri) =>
      extractKernelSettings(new SourceText(text), uri, kind),
    );
  }
  checkParser('parseConfigFile', inputs('anf-lint-config'), (text) => parseConfigFile(text));
  checkParser('readFio', inputs('fio'), (text) => readFio(text));
  checkParser('readVdbench', inputs('vdbench'), (text) => readVdbench(text));
  checkParser('parseMountstats', inputs('mountstats'), (text) => parseMountstats(text));

  it('SourceText: positions and offsets round-trip for every offset', () => {
    fc.assert(
      fc.property(inputs('fstab', 'manifest-yaml'), (file) => {
        const source = new SourceText(file.text);
        for (let offset = 0; offset <= file.text.length; offset += Math.max(1, Math.floor(file.text.length / 50))) {
          const position = source.positionAt(offset);
          expect(position.line).toBeLessThan(source.lineCount);
          expect(position.character).toBeLessThanOrEqual(
            source.lineEnd(position.line) - source.lineStart(position.line),
          );
          // Inside a CRLF pair there is no position of its own: it maps to the end of the line.
          const insideCrlf = file.text[offset - 1] === '\r' && file.text[offset] === '\n';
          expect(source.offsetAt(position)).toBe(insideCrlf ? offset - 1 : offset);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
