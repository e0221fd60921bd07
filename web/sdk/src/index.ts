import { createSDK, type InterviewSDKStatic } from './sdk.js';

export type * from './sdk.js';

/** The ES module build: `import InterviewSDK from '…/interview-sdk.mjs'`; baseUrl defaults to the module's origin. */
const InterviewSDK: InterviewSDKStatic = createSDK(new URL(import.meta.url).origin);
export default InterviewSDK;
