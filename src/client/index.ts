/** Public entry of the typed client. */
export { createClient, basicAuthHeader, type WeftClient, type ClientOptions } from './createClient.js';
export { HttpError, describeErrorBody } from './HttpError.js';
export { readJsonLines } from './readJsonLines.js';
