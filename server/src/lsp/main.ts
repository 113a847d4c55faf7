// The language server entry point (filled in by the language-server work).
process.stderr.write('anf-lint language server: not implemented yet\n');
