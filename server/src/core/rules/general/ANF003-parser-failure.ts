import { reportedByEngine } from './reportedByEngine';

/**
 * Reported by the engine when a file's reader (parser or extractor) throws: the file is not
 * checked, and instead of a silently clean file the user sees that, and why.
 */
export const parserFailure = reportedByEngine({
  code: 'ANF003',
  name: 'parser-failure',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'anf-lint could not read this file',
    what: 'The reader for this kind of file raised an internal error, so the rules that need what it reads did not run on this file.',
    why: 'A file anf-lint could not read is not a file without problems: you see that it was not checked instead of a silent pass.',
    instead:
      'Report the message and the file (or a reduced copy) as an anf-lint bug. Meanwhile the file is not checked; other files are.',
  },
});
