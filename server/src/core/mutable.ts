/** `T` with its fields writable: for a result built field by field (no spread per optional key) before it is handed out as `T`. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };
