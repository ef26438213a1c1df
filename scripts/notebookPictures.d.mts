/** A section's first picture of an executed notebook (see notebookPictures.mjs). */
export interface NotebookPicture {
  /** `<notebook>-<section number>.png`, its name in docs/img/. */
  readonly file: string;
  /** The section's heading. */
  readonly title: string;
  /** The PNG's bytes. */
  readonly png: Buffer;
}

export function notebookPictures(executedFile: string): NotebookPicture[];

export function writeNotebookPictures(
  names: readonly string[],
  executedDirectory: string,
  imageDirectory: string,
): string[];
