/** `import{a as b}from"./x.js"`, `import"./x.js"` and `export{a}from"./x.js"`; never `import("./x.js")`. */
const staticImportPattern =
  /(?:\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?|\bexport\s*(?:\*|\{[^}]*\})\s*from\s*)["'`]\.\/([^"'`]+\.js)["'`]/g;

/**
 * The sibling chunks a built chunk imports statically, by file name: what the browser must fetch before
 * the chunk runs. Shared by `npm run size` and the delivery tests, which read the same built code.
 */
export function staticImportsIn(code) {
  return [...code.matchAll(staticImportPattern)].map((match) => match[1]);
}
