const { Parser, Language } = require('web-tree-sitter');
const fs = require('fs');
(async () => {
  await Parser.init();
  const bi = await Language.load(fs.readFileSync('node_modules/tree-sitter-bicep/tree-sitter-bicep.wasm'));
  const p = new Parser(); p.setLanguage(bi);
  const t = p.parse(fs.readFileSync(process.argv[2],'utf8'));
  console.log(t.rootNode.toString());
})();
