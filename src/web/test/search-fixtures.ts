// The document fixtures live in src/shared/test, where shared tests can reach them too (the web may import
// shared code, never the reverse); web tests keep importing them from here.
export { makePeopleResult, makeTrendingTag } from '@shared/test/search-fixtures.js';
