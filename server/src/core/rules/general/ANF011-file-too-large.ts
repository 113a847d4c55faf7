import { reportedByEngine } from './reportedByEngine';

/**
 * Reported by the language server when an open document is larger than it checks while typing
 * (server/src/lsp/limits.ts): one finding on the first line, instead of a server that stops answering.
 */
export const fileTooLarge = reportedByEngine({
  code: 'ANF011',
  name: 'file-too-large',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'Document too large to check in the editor',
    what: 'An open document longer than the editor limit (4 Mi characters, about 4 MiB of ASCII text). The language server does not parse it, so it has no other findings, hovers or completions; the rest of the workspace is served as usual.',
    why: "The editor checks a document again on every change. On a document of tens of megabytes every keystroke would cost seconds and hundreds of megabytes, and the server would stop answering for every other file too. The limit is anf-lint's own choice.",
    instead:
      'Lint the file with the CLI (`anf-lint path/to/file`), which reads named files up to 64 MiB once, or split the file.',
  },
});
