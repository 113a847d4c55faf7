export { buildHostModel, DOCUMENTATION_KINDS, hostModelOf, hostRootOf, onHostWords, OWN_SCOPE_KINDS, type Host, type HostKind, type HostModel } from './hostModel';
