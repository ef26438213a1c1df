/** Placeholder entry of the pathlab CLI; replaced by the commander program. */
console.log("pathlab: the sync job is coming.");
