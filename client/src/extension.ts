// The VS Code client entry point (filled in by the extension work).
export function activate(): void {}
export function deactivate(): void {}
