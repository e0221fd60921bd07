/**
 * The API's version (semver; CHANGELOG.md): in `API-Version` on every API answer, in the OpenAPI
 * document and in the client package's manifest.
 */
export const API_VERSION = '1.12.0';
