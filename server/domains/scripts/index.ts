/** What other domains may use of scripts: everything else here is the domain's own. */
export { createScript } from './create-script.js';
export { loadScript } from './load-script.js';
export { publishScript } from './publish-script.js';
