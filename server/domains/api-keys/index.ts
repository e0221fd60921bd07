/** What other domains may use of API keys: everything else here is the domain's own. */
export { isApiKeyStillUsable } from './authenticate-api-key.js';
