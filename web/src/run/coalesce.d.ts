// STAND-IN for the type check only (tsconfig.json): the type of coalesce.js while it is excluded
// from the check (typed by the play-seams branch). Delete it with the exclusion (at the merge).

/** Wrap `pass` so that overlapping calls coalesce into one more pass. */
export function coalesce(pass: () => void | Promise<void>, stop?: () => boolean): () => Promise<void>;
