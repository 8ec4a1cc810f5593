/**
 * The layout of generated TypeScript, shared by the printer (module-text.ts,
 * ts-morph) and the formatter (format.ts, prettier), so that prettier finds
 * nothing to change in what the printer writes.
 */
export const PRINT_WIDTH = 100;
export const INDENT_WIDTH = 2;
