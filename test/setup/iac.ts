import { initIacParsers } from '../../server/src/core/iac/treeSitter';
import { loadIacWasm } from '../../server/src/iacWasm';

// The Terraform and Bicep readers need their WebAssembly loaded before any file is parsed.
await initIacParsers(loadIacWasm);
