/** The sibling chunks a built chunk imports statically, by file name (`x.js` for `import"./x.js"`). */
export function staticImportsIn(code: string): string[];
