/**
 * The web app's `srcset` and `sizes` come from the module the server's preload tags use too, so the image a
 * page preloads is the very one its `<img>` picks (ADR 0026).
 */
export {
  avatarSources,
  coverSizes,
  coverSources,
  postImageSizes,
  srcSetOf,
} from '@shared/image-sources.js';
