// Imported by module-inserted.js.
export const PROTOCOL_VERSION = 'module';
