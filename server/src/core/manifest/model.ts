/**
 * The parsed manifest: accounts -> capacity pools -> volumes, each value with its span.
 * (Placeholder: the manifest parser defines the full model.)
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ManifestDocument {}
