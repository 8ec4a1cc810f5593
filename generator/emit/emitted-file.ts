/** What the emitter returns: a file's path and content. It writes nothing itself. */
export interface EmittedFile {
  /** Posix path relative to the output directory, e.g. `signing/index.ts`. */
  readonly path: string;
  readonly content: string;
}
